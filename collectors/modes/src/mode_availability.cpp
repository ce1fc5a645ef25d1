#include "jbench/collectors/modes/mode_availability.h"

#include <nlohmann/json.hpp>

#include "jbench/collectors/modes/trace_modes.h"

namespace jbench::collectors {
namespace {

using Json = nlohmann::json;

// The remediation of the probe's first not_available check whose name starts with `prefix`.
std::string remediation_of(const Json& capabilities, std::string_view prefix) {
  const auto checks = capabilities.find("checks");
  if (checks == capabilities.end() || !checks->is_array()) return {};
  for (const Json& c : *checks) {
    if (c.value("status", "") != "not_available") continue;
    if (c.value("name", "").rfind(prefix, 0) != 0) continue;
    return c.value("remediation", "");
  }
  return {};
}

}  // namespace

ModeAvailability mode_availability(TraceMode mode, std::string_view workload_kind,
                                   const Json& capabilities, bool alloc_library_built) {
  for (const CollectorPlan& c : collectors_for(mode, workload_kind)) {
    if (!c.required) continue;
    if (c.name == "syscall") {
      const Json* syscall = nullptr;
      if (const auto b = capabilities.find("backends"); b != capabilities.end() && b->is_object())
        if (const auto s = b->find("syscall"); s != b->end()) syscall = &*s;
      if (!syscall || !syscall->contains("chosen") || (*syscall)["chosen"].is_null()) {
        std::string why = syscall ? syscall->value("why", "") : "the probe has no syscall backend";
        std::string fix = remediation_of(capabilities, "bpftrace");
        if (fix.empty()) fix = remediation_of(capabilities, "strace");
        if (fix.empty()) fix = "run `jbench doctor` and follow its remediation";
        return {false, "syscall: no backend can attach here: " + why, fix};
      }
    } else if (c.name == "alloc" && c.source == "ld-preload" && !alloc_library_built) {
      return {false, "alloc: the allocation sampler libjbench_alloc.so is not built beside jbench",
              "build it: cmake --build build --target jbench_alloc_preload"};
    }
    // cpu reads /proc between phases, and the bridge writes its own raw files from inside the
    // target: neither needs anything of the host beyond what `jbench run` already checked.
  }
  return {};
}

}  // namespace jbench::collectors
