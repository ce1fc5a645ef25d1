// The compiled syscall tracer (libbpf): built into this jbench, and (unless --no-attach) loaded
// and attached here by a short-lived tracer of the probe's own. The syscall collector's probe
// (jbench/collectors/syscall/compiled_tracer.h) does the work; this words it as a check.
#include <fmt/format.h>

#include "checks.h"
#include "jbench/collectors/syscall/compiled_tracer.h"

namespace jbench::doctor {
namespace {

nlohmann::json facts_json(const collectors::CompiledTracerProbe& p) {
  const collectors::CompiledTracerFacts& f = p.facts;
  nlohmann::json j = {{"built", p.built},
                      {"attach_verified", p.loaded},
                      {"btf_present", f.btf_present},
                      {"euid", f.euid ? nlohmann::json(*f.euid) : nullptr},
                      {"cap_bpf", f.cap_bpf},
                      {"cap_perfmon", f.cap_perfmon},
                      {"cap_sys_admin", f.cap_sys_admin},
                      // null: unlimited
                      {"memlock_soft_bytes",
                       f.memlock_soft_bytes ? nlohmann::json(*f.memlock_soft_bytes) : nullptr},
                      {"kernel_release", f.kernel_release}};
  if (p.loaded) j["load_ns"] = std::to_string(p.load_ns);  // ns as a decimal string
  if (!p.libbpf_version.empty()) j["libbpf_version"] = p.libbpf_version;
  if (!p.errno_name.empty()) j["errno"] = p.errno_name;
  return j;
}

}  // namespace

Check compiled_tracer_check_for(const collectors::CompiledTracerProbe& p, const Check& lockdown) {
  Check c;
  if (p.usable() && p.loaded) {
    c = Check::ok("compiled_tracer",
                  fmt::format("{}: loaded and attached the compiled tracer "
                              "(collectors/syscall/bpf/syscall_trace.bpf.c, CO-RE) in {:.1f} ms, "
                              "then closed it",
                              p.libbpf_version, static_cast<double>(p.load_ns) / 1e6));
  } else if (p.usable()) {
    c = Check::ok("compiled_tracer",
                  p.libbpf_version +
                      ": built in, kernel BTF present, privileged; load not tried (--no-attach): "
                      "not proven");
  } else {
    const bool refused = p.reason_code == "denied_privilege" || p.reason_code == "attach_failed";
    if (refused && !lockdown.available && lockdown.reason_code == "locked_down") {
      // Lockdown refuses the load with EPERM even to root: its fix is the one that helps.
      c = Check::missing("compiled_tracer", "locked_down", p.reason + " (" + lockdown.detail + ")",
                         lockdown.remediation);
    } else {
      c = Check::missing("compiled_tracer", p.reason_code, p.reason, p.remediation);
    }
  }
  c.facts = facts_json(p);
  return c;
}

Check check_compiled_tracer(const ProbeContext& ctx, const std::vector<Check>& before) {
  if (!ctx.linux_host()) {
    return Check::missing("compiled_tracer", "unsupported_os",
                          "the compiled tracer is a Linux BPF program; host: " + ctx.os,
                          "run traced matrices on Linux");
  }
  return compiled_tracer_check_for(
      collectors::probe_compiled_tracer(
          {.root = ctx.options.root, .try_load = ctx.options.try_attach}),
      find_check(before, "lockdown"));
}

}  // namespace jbench::doctor
