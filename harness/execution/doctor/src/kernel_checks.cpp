// The kernel's tracing interfaces: tracefs, the syscall tracepoints under it, and uprobes.
// Existence is what is checked here; whether a tool can attach is the tools' checks' job.
#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include "checks.h"
#include "host_files.h"
#include "jbench/common/small_file.h"
#include "jbench/doctor/parsers.h"
#include "jbench/host_caps/remediation.h"
#include "jbench/host_caps/tracefs.h"

namespace jbench::doctor {

Check check_tracefs(const ProbeContext& ctx) {
  const host_caps::TracefsLookup tracefs = host_caps::find_tracefs(ctx.options.root);
  if (!tracefs.denied.empty()) {
    return Check::missing(
        "tracefs", "denied_privilege",
        fmt::format("{}: {}", tracefs.denied, std::strerror(tracefs.denied_errno)),
        "run as root (tracefs is readable by root only by default)");
  }
  if (!tracefs.dir.empty()) {
    Check c = Check::ok("tracefs", tracefs.dir);
    c.facts["path"] = tracefs.dir;
    return c;
  }
  const std::string candidates[] = {ctx.path(host_caps::kTracefsMounts[0]),
                                    ctx.path(host_caps::kTracefsMounts[1])};
  const bool empty_mountpoint =
      path_kind(candidates[0]) == PathKind::directory && !directory_has_entries(candidates[0]);
  return Check::missing(
      "tracefs", "not_mounted",
      fmt::format("no events/ under {}{} nor under {}", candidates[0],
                  empty_mountpoint ? " (an empty mount point)" : "", candidates[1]),
      host_caps::kMountTracefs);
}

Check check_syscall_tracepoints(const ProbeContext& /*ctx*/, const Check& tracefs) {
  if (!tracefs.available) {
    return Check::missing("syscall_tracepoints", tracefs.reason_code,
                          "needs tracefs: " + tracefs.detail, tracefs.remediation);
  }
  const std::string dir = tracefs.facts.at("path").get<std::string>();
  const std::string probe = host_caps::syscall_tracepoint_dir(dir, "openat");
  const PathKind kind = path_kind(probe);
  if (kind == PathKind::directory) return Check::ok("syscall_tracepoints", probe);
  if (kind == PathKind::denied) {
    return Check::missing("syscall_tracepoints", "denied_privilege",
                          fmt::format("{}: {}", probe, std::strerror(EACCES)), "run as root");
  }
  return Check::missing("syscall_tracepoints", "probe_not_found",
                        probe + " does not exist: the kernel has no syscall tracepoints",
                        host_caps::kSyscallTracepointsKernel);
}

Check check_uprobes(const ProbeContext& ctx, const Check& tracefs) {
  const std::string pmu = ctx.path("/sys/bus/event_source/devices/uprobe");
  if (path_kind(pmu) == PathKind::directory) {
    Check c = Check::ok("uprobes", "uprobe PMU at " + pmu);
    if (const auto type = read_small_file(pmu + "/type")) {
      if (auto t = parse_sysctl_int(*type)) c.facts["pmu_type"] = *t;
    }
    return c;
  }
  if (tracefs.available) {
    const std::string events = tracefs.facts.at("path").get<std::string>() + "/uprobe_events";
    if (path_kind(events) == PathKind::file) return Check::ok("uprobes", events);
  }
  return Check::missing("uprobes", "probe_not_found",
                        fmt::format("no uprobe PMU ({}) and no tracefs uprobe_events", pmu),
                        "use a kernel built with CONFIG_UPROBES=y and CONFIG_UPROBE_EVENTS=y");
}

}  // namespace jbench::doctor
