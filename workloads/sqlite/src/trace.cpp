#include "jbench/sqlite_workload/trace.h"

#include <fmt/format.h>

#include <array>
#include <cstdlib>

namespace jbench::sqlite_workload::trace {
namespace {

// Indexed by OpType; the suffixes are plan_class() (a unit test keeps the two in step).
constexpr std::array<const char*, kOpTypeCount> kStatementSpans = {
    "statement:insert",
    "statement:update",
    "statement:point_lookup",
    "statement:range_scan",
    "statement:correlated_scalar_subquery",
    "statement:uncorrelated_scalar_subquery",
};

std::string env_or(const char* name, std::string_view fallback) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::string(value) : std::string(fallback);
}

// The bridge accepted the environment; it must also be in the mode asked for. Only a build whose
// bridge is compiled out (-DJBENCH_TRACING=OFF) accepts a mode it then does not enter: there the
// bridge is always off.
std::optional<std::string> mode_not_active() {
  const std::string asked = env_or("JBENCH_BRIDGE_MODE", "");
  if (asked.empty() || asked == bridge_mode_name()) return std::nullopt;
  return fmt::format(
      "JBENCH_BRIDGE_MODE {} asks for tracing, but this worker was built with "
      "-DJBENCH_TRACING=OFF, which compiles the trace bridge out; rebuild with "
      "-DJBENCH_TRACING=ON (the default) to trace",
      asked);
}

}  // namespace

const char* transaction_span(bool writes) {
  return writes ? "transaction:write" : "transaction:read";
}

const char* statement_span(OpType type) { return kStatementSpans[static_cast<std::size_t>(type)]; }

std::optional<std::string> start_bridge() {
  const int rc = jb_init_from_env();
  switch (rc) {
    case 0:
      return mode_not_active();
    case JB_ERR_BAD_MODE:
      return fmt::format("JBENCH_BRIDGE_MODE must be off, no-consumer, light or full, not \"{}\"",
                         env_or("JBENCH_BRIDGE_MODE", ""));
    case JB_ERR_NO_OUT:
      return fmt::format("JBENCH_BRIDGE_MODE {} needs JBENCH_BRIDGE_OUT, the raw file to create",
                         env_or("JBENCH_BRIDGE_MODE", ""));
    case JB_ERR_OPEN:
      return fmt::format(
          "the trace bridge cannot create JBENCH_BRIDGE_OUT \"{}\" (it must not "
          "exist yet; see stderr)",
          env_or("JBENCH_BRIDGE_OUT", ""));
    case JB_ERR_RESOURCE:
      return std::string(
          "the trace bridge could not start: memory, /proc/self/stat or the random source was "
          "unavailable");
    default:
      return fmt::format("the trace bridge could not start (jb_init_from_env returned {})", rc);
  }
}

std::string_view bridge_mode_name() {
  switch (jb_mode()) {
    case JB_MODE_NO_CONSUMER:
      return "no-consumer";
    case JB_MODE_LIGHT:
      return "light";
    case JB_MODE_FULL:
      return "full";
    default:
      return "off";
  }
}

}  // namespace jbench::sqlite_workload::trace
