// What can count instructions here, for counted runs (docs/trace-modes.md, "counted"): the
// processor's own counter through perf_event_open, and valgrind's callgrind, which counted runs
// use. Each is tried, not assumed.
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "checks.h"
#include "jbench/common/errno_name.h"
#include "jbench/common/path_search.h"
#include "jbench/common/platform_choice.h"
#include "jbench/proc/run_tool.h"

#if JBENCH_PLATFORM_LINUX
#include <linux/perf_event.h>
#include <sys/syscall.h>
#endif

namespace jbench::doctor {

#if JBENCH_PLATFORM_LINUX
namespace {

// Opens the hardware instructions counter on this process, as counted runs would.
Check open_instructions_counter() {
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_HARDWARE;
  attr.config = PERF_COUNT_HW_INSTRUCTIONS;
  attr.disabled = 1;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  const long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
  if (fd >= 0) {
    close(static_cast<int>(fd));
    return Check::ok("instructions_counter",
                     "perf_event_open opened the hardware instructions counter for this process: "
                     "counted runs count with it, at full speed");
  }
  const int err = errno;
  const bool absent = err == ENOENT || err == EOPNOTSUPP || err == ENODEV;
  return Check::missing(
      "instructions_counter", absent ? "probe_not_found" : "denied_privilege",
      fmt::format("perf_event_open(PERF_COUNT_HW_INSTRUCTIONS): {} ({})", std::strerror(err),
                  errno_name(err) ? errno_name(err) : "?") +
          (absent ? ": this host (a VM without a virtual PMU?) has no hardware counters" : ""),
      absent ? "none needed: counted runs use callgrind (see the callgrind check)"
             : "lower kernel.perf_event_paranoid or run as root");
}

}  // namespace
#endif

Check check_instructions_counter(const ProbeContext& ctx) {
#if JBENCH_PLATFORM_LINUX
  if (ctx.linux_host()) return open_instructions_counter();
#endif
  return Check::missing("instructions_counter", "unsupported_os",
                        "perf_event_open is Linux only; host: " + ctx.os +
                            (JBENCH_PLATFORM_LINUX ? "" : ", and this build is not for Linux"),
                        "counted runs use callgrind (see the callgrind check)");
}

Check check_callgrind(const ProbeContext& ctx) {
  const std::string path =
      find_in_path("valgrind", ctx.options.path_env, RelativePathEntries::resolve);
  if (path.empty()) {
    return Check::missing("callgrind", "not_installed",
                          "no executable valgrind in PATH=" + ctx.options.path_env,
                          "sudo apt-get install valgrind");
  }
  const std::vector<std::string> version_argv{path, "--version"};
  const ToolRun version_run = proc::run_to_completion(version_argv, ctx.options.path_env, 5000);
  std::string version = version_run.out;
  while (!version.empty() && (version.back() == '\n' || version.back() == ' ')) version.pop_back();
  const std::string name =
      fmt::format("{} {}", path, version.empty() ? "(version unknown)" : version);
  if (!ctx.options.try_attach) {
    return with_tool_proof(
        Check::ok("callgrind", name + "; a counted program not tried (--no-attach)"),
        evidence_of(version_argv, version_run, version), path, false);
  }
  // A real program, counted: callgrind must start and exit cleanly around it.
  const std::vector<std::string> argv{
      path, "--tool=callgrind", "--quiet", "--callgrind-out-file=/dev/null", path, "--version"};
  const ToolRun run =
      proc::run_to_completion(argv, ctx.options.path_env, ctx.options.attach_timeout_ms);
  const Evidence evidence = evidence_of(argv, run, version);
  Check c = run.started && !run.timed_out && !run.signaled && run.exit_code == 0
                ? Check::ok("callgrind", name + ": counted a program's instructions")
                : Check::missing("callgrind", "attach_failed",
                                 name + ": callgrind did not run a program to a clean end",
                                 "run `" + evidence.command + "` by hand and read its stderr");
  const bool verified = c.available;
  return with_tool_proof(std::move(c), evidence, path, verified);
}

}  // namespace jbench::doctor
