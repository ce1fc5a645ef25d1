// probe_capabilities: reads the context once, runs the checks in dependency order, chooses the
// backends.
#include <sys/utsname.h>

#include <cstdlib>

#include "checks.h"
#include "jbench/doctor/capabilities.h"
#include "jbench/host_caps/privilege.h"

namespace jbench {
namespace {

doctor::ProbeContext read_context(const ProbeOptions& options) {
  doctor::ProbeContext ctx;
  ctx.options = options;
  if (ctx.options.path_env.empty()) {
    const char* path = std::getenv("PATH");
    ctx.options.path_env = path != nullptr ? path : "/usr/bin:/bin";
  }
  struct utsname u {};
  if (uname(&u) == 0) ctx.os = u.sysname;
  host_caps::ProcessPrivilege privilege = host_caps::read_process_privilege(ctx.options.root);
  ctx.euid = privilege.euid;
  ctx.cap_eff = privilege.cap_eff;
  ctx.status_why = std::move(privilege.why);
  return ctx;
}

nlohmann::json host_json() {
  struct utsname u {};
  if (uname(&u) != 0) return {{"os", "unknown"}, {"arch", "unknown"}, {"kernel", "unknown"}};
  return {{"os", u.sysname}, {"arch", u.machine}, {"kernel", u.release}};
}

}  // namespace

const std::vector<std::string>& capability_reason_codes() {
  static const std::vector<std::string> codes = {
      "not_installed",   "unsupported_os", "denied_privilege", "restricted_by_sip",
      "probe_not_found", "attach_failed",  "not_mounted",      "disabled_by_sysctl",
      "locked_down",     "unreadable",     "not_a_tracer"};
  return codes;
}

nlohmann::json probe_capabilities(const ProbeOptions& options) {
  using namespace doctor;
  const ProbeContext ctx = read_context(options);
  std::vector<Check> checks;
  checks.push_back(check_os(ctx));
  checks.push_back(check_effective_uid(ctx));
  checks.push_back(check_capabilities(ctx));
  checks.push_back(check_perf_event_paranoid(ctx));
  checks.push_back(check_ptrace_scope(ctx));
  checks.push_back(check_unprivileged_bpf(ctx));
  checks.push_back(check_lockdown(ctx));
  if (ctx.os == "Darwin") checks.push_back(check_sip(ctx));
  checks.push_back(check_tracefs(ctx));
  checks.push_back(check_syscall_tracepoints(ctx, checks.back()));
  checks.push_back(check_uprobes(ctx, find_check(checks, "tracefs")));
  checks.push_back(check_compiled_tracer(ctx, checks));
  checks.push_back(check_bpftrace(ctx, checks));
  checks.push_back(check_strace(ctx, checks));
  checks.push_back(check_dtrace(ctx, checks));
  checks.push_back(check_instructions_counter(ctx));
  checks.push_back(check_callgrind(ctx));

  nlohmann::json doc = {{"schema", "jbench.capabilities"},
                        {"schema_version", 1},
                        {"inputs",
                         {{"root", ctx.options.root},
                          {"path_env", ctx.options.path_env},
                          {"try_attach", ctx.options.try_attach},
                          {"attach_timeout_ms", ctx.options.attach_timeout_ms}}},
                        {"host", host_json()},
                        {"checks", nlohmann::json::array()}};
  for (const auto& c : checks) doc["checks"].push_back(to_json(c));
  doc["backends"] = choose_backends(checks);
  return doc;
}

}  // namespace jbench
