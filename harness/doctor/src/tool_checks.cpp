// The tools: found on PATH, their version, and, when attaching is allowed, proof that they can
// trace (bpftrace prints a marker from a BEGIN probe; strace traces a short child).
#include <fmt/format.h>

#include <algorithm>

#include "checks.h"
#include "host_files.h"
#include "jbench/common/path_search.h"
#include "jbench/doctor/parsers.h"
#include "jbench/host_caps/remediation.h"
#include "jbench/proc/run_tool.h"

namespace jbench::doctor {
namespace {

constexpr const char* kAttachMarker = "jbench-attach-ok";
constexpr const char* kAttachProgram = R"(BEGIN { printf("jbench-attach-ok\n"); exit(); })";

int version_timeout(const ProbeContext& ctx) {
  return std::min(ctx.options.attach_timeout_ms, 5000);
}

// How a tool run ended, for a detail line: "exit 1", "killed by signal 9", "timed out after 5000
// ms", "execve ...: No such file".
std::string ending(const ToolRun& run, int timeout_ms) {
  if (!run.started) return run.error;
  if (run.timed_out) return fmt::format("timed out after {} ms (killed)", timeout_ms);
  if (run.signaled) return fmt::format("killed by signal {}", run.signal);
  return fmt::format("exit {}", run.exit_code);
}

std::string with_errno(const std::string& text, const Evidence& e) {
  return e.errno_name.empty() ? text : text + " (" + e.errno_name + ")";
}

}  // namespace

Check check_bpftrace(const ProbeContext& ctx, const std::vector<Check>& before) {
  if (!ctx.linux_host()) {
    return Check::missing("bpftrace", "unsupported_os",
                          "bpftrace runs on Linux only; host: " + ctx.os,
                          "run traced matrices on Linux");
  }
  const std::string path =
      find_in_path("bpftrace", ctx.options.path_env, RelativePathEntries::resolve);
  if (path.empty()) {
    return Check::missing("bpftrace", "not_installed",
                          "no executable bpftrace in PATH=" + ctx.options.path_env,
                          host_caps::kInstallBpftrace);
  }
  const std::vector<std::string> version_argv{path, "--version"};
  const ToolRun version_run =
      proc::run_to_completion(version_argv, ctx.options.path_env, version_timeout(ctx));
  const auto version = parse_bpftrace_version(version_run.out + version_run.err);
  const std::string name = fmt::format("{} {}", path, version.value_or("(version unknown)"));

  if (!ctx.options.try_attach) {
    return with_tool_proof(
        Check::ok("bpftrace", name + "; attach not tried (--no-attach): not proven"),
        evidence_of(version_argv, version_run, version), path, false);
  }
  const std::vector<std::string> argv{path, "-e", kAttachProgram};
  const int timeout = ctx.options.attach_timeout_ms;
  const ToolRun run = proc::run_to_completion(argv, ctx.options.path_env, timeout);
  const Evidence evidence = evidence_of(argv, run, version);
  Check c;
  if (run.started && !run.timed_out && !run.signaled && run.exit_code == 0 &&
      run.out.find(kAttachMarker) != std::string::npos) {
    // bpftrace warns when it cannot raise RLIMIT_MEMLOCK yet attaches anyway (newer kernels
    // account BPF memory to the cgroup): the printed marker is the proof that counts.
    const bool memlock_warning = run.err.find("RLIMIT_MEMLOCK") != std::string::npos;
    c = Check::ok("bpftrace",
                  name + ": attached a BEGIN probe and saw its output" +
                      (memlock_warning ? " (its RLIMIT_MEMLOCK warning is harmless)" : ""));
  } else {
    std::string why = ending(run, timeout);
    if (run.started && !run.timed_out && run.exit_code == 0) {
      why += fmt::format(", but the marker '{}' was not printed", kAttachMarker);
    }
    const Check& caps = find_check(before, "capabilities");
    const Check& lockdown = find_check(before, "lockdown");
    std::string fix;
    if (!lockdown.available && lockdown.reason_code == "locked_down") {
      fix = lockdown.remediation;
    } else if (evidence.stderr_excerpt.find("only supports running as the root user") !=
               std::string::npos) {
      fix = host_caps::kBpftraceAsRoot;  // capabilities would not help: it checks its uid
    } else if (!caps.available || evidence.errno_name == "EPERM" ||
               evidence.errno_name == "EACCES") {
      fix = "run as root, or grant CAP_BPF and CAP_PERFMON: sudo setcap cap_bpf,cap_perfmon+ep " +
            path;
    } else {
      fix = "run `" + evidence.command +
            "` by hand and read its stderr; a kernel with CONFIG_BPF_SYSCALL=y and "
            "CONFIG_BPF_EVENTS=y, and bpftrace built for it, are needed";
    }
    c = Check::missing("bpftrace", "attach_failed",
                       with_errno(name + ": the attach test " + why, evidence), fix);
  }
  const bool verified = c.available;
  return with_tool_proof(std::move(c), evidence, path, verified);
}

Check check_strace(const ProbeContext& ctx, const std::vector<Check>& before) {
  if (!ctx.linux_host()) {
    return Check::missing("strace", "unsupported_os", "strace runs on Linux only; host: " + ctx.os,
                          "run traced matrices on Linux");
  }
  const std::string path =
      find_in_path("strace", ctx.options.path_env, RelativePathEntries::resolve);
  if (path.empty()) {
    return Check::missing("strace", "not_installed",
                          "no executable strace in PATH=" + ctx.options.path_env,
                          host_caps::kInstallStrace);
  }
  const std::vector<std::string> version_argv{path, "-V"};
  const ToolRun version_run =
      proc::run_to_completion(version_argv, ctx.options.path_env, version_timeout(ctx));
  const auto version = parse_strace_version(version_run.out);
  const std::string name = fmt::format("{} {}", path, version.value_or("(version unknown)"));

  const Check& ptrace = find_check(before, "ptrace_scope");
  if (!ptrace.available) {
    Check c = Check::missing("strace", ptrace.reason_code,
                             name + ": needs ptrace: " + ptrace.detail, ptrace.remediation);
    c.evidence = evidence_of(version_argv, version_run, version);
    return c;
  }
  if (!ctx.options.try_attach) {
    return with_tool_proof(
        Check::ok("strace", name + "; ptrace scope allows it; trace not tried (--no-attach)"),
        evidence_of(version_argv, version_run, version), path, false);
  }
  // Trace a short child that surely exists: strace itself printing its version.
  const std::vector<std::string> argv{path, "-f",           "-qq", "-o", "/dev/null",
                                      "-e", "trace=execve", "--",  path, "-V"};
  const int timeout = ctx.options.attach_timeout_ms;
  const ToolRun run = proc::run_to_completion(argv, ctx.options.path_env, timeout);
  const Evidence evidence = evidence_of(argv, run, version);
  Check c;
  if (run.started && !run.timed_out && !run.signaled && run.exit_code == 0) {
    c = Check::ok("strace", name + ": traced a child process");
  } else {
    c = Check::missing("strace", "attach_failed",
                       with_errno(name + ": the trace test " + ending(run, timeout), evidence),
                       "run `" + evidence.command +
                           "` by hand and read its stderr; in a container, ptrace may be "
                           "blocked by seccomp (docker run --cap-add SYS_PTRACE)");
  }
  const bool verified = c.available;
  return with_tool_proof(std::move(c), evidence, path, verified);
}

Check check_dtrace(const ProbeContext& ctx, const std::vector<Check>& before) {
  const std::string path =
      find_in_path("dtrace", ctx.options.path_env, RelativePathEntries::resolve);
  if (path.empty()) {
    return Check::missing(
        "dtrace", "not_installed", "no executable dtrace in PATH=" + ctx.options.path_env,
        ctx.linux_host()
            ? "none needed on Linux: bpftrace traces the bridge's USDT probes; to build probe "
              "headers, sudo apt-get install systemtap-sdt-dev"
            : "DTrace ships with macOS and illumos: check PATH (/usr/sbin)");
  }
  // systemtap's dtrace has no version option; its usage text identifies it.
  const std::vector<std::string> argv{path, "--help"};
  const ToolRun run = proc::run_to_completion(argv, ctx.options.path_env, version_timeout(ctx));
  Check c;
  if (is_systemtap_dtrace(run.out + run.err)) {
    c = Check::missing("dtrace", "not_a_tracer",
                       path +
                           " is systemtap's USDT header/object generator (dtrace -h, -G), "
                           "not a tracer",
                       "nothing to fix on Linux: it builds the bridge's probe headers; the probes "
                       "are traced with bpftrace (see the bpftrace check)");
    c.facts["kind"] = "systemtap-sdt generator";
  } else if (ctx.os == "Darwin") {
    const Check* sip = nullptr;
    for (const auto& b : before) {
      if (b.name == "sip") sip = &b;
    }
    c = sip != nullptr && !sip->available
            ? Check::missing("dtrace", sip->reason_code, path + ": " + sip->detail,
                             sip->remediation)
            : Check::ok("dtrace", path + ": DTrace (jbench has no DTrace backend yet)");
    c.facts["kind"] = "dtrace";
  } else {
    c = Check::ok("dtrace", path + ": a DTrace (jbench has no DTrace backend yet)");
    c.facts["kind"] = "dtrace";
  }
  c.evidence = evidence_of(argv, run, std::nullopt);
  c.facts["path"] = path;
  return c;
}

}  // namespace jbench::doctor
