// The tools: found on PATH, their version, and, when attaching is allowed, proof that they can
// trace (bpftrace prints a marker from a BEGIN probe; strace traces a short child).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <sstream>

#include "checks.h"
#include "host_files.h"
#include "jbench/common/path_search.h"
#include "jbench/doctor/parsers.h"
#include "jbench/host_caps/dtrace.h"
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

namespace {

constexpr const char* kDtraceAttachProgram = R"(BEGIN { printf("jbench-attach-ok\n"); exit(0); })";

// No DTrace: the one $JBENCH_DTRACE named is not one; else systemtap's generator where one answers
// to the name; else nothing at all.
Check no_dtrace(const ProbeContext& ctx, const host_caps::DtraceFound& found, bool named) {
  const std::string path =
      find_in_path("dtrace", ctx.options.path_env, RelativePathEntries::resolve);
  if (named || path.empty()) {
    return Check::missing("dtrace", "not_installed", found.reason, found.remediation);
  }
  // systemtap's dtrace has no version option; its usage text identifies it.
  const std::vector<std::string> argv{path, "--help"};
  const ToolRun run = proc::run_to_completion(argv, ctx.options.path_env, version_timeout(ctx));
  const bool systemtap = is_systemtap_dtrace(run.out + run.err);
  Check c = Check::missing(
      "dtrace", "not_a_tracer",
      systemtap ? path +
                      " is systemtap's USDT header/object generator (dtrace -h, -G), not a "
                      "tracer, and JBENCH_DTRACE is unset"
                : found.reason,
      found.remediation);
  c.facts["kind"] = systemtap ? "systemtap-sdt generator" : "unknown";
  c.evidence = evidence_of(argv, run, std::nullopt);
  c.facts["path"] = path;
  return c;
}

// What a found DTrace still needs here before it can trace: SIP on macOS; on Linux root and
// tracefs where DTrace for Linux reads it (/sys/kernel/debug/tracing).
std::optional<Check> dtrace_blocked(const ProbeContext& ctx, const std::vector<Check>& before,
                                    const std::string& name) {
  if (ctx.os == "Darwin") {
    for (const auto& b : before) {
      if (b.name == "sip" && !b.available) {
        return Check::missing("dtrace", b.reason_code, name + ": " + b.detail, b.remediation);
      }
    }
    return std::nullopt;
  }
  if (!ctx.linux_host()) return std::nullopt;
  if (path_kind(ctx.path("/sys/kernel/debug/tracing")) != PathKind::directory) {
    return Check::missing("dtrace", "not_mounted",
                          name +
                              ": DTrace for Linux reads tracefs at /sys/kernel/debug/tracing, "
                              "and debugfs is not mounted there",
                          "sudo mount -t debugfs none /sys/kernel/debug");
  }
  if (ctx.euid.value_or(-1) != 0) {
    return Check::missing("dtrace", "denied_privilege", name + ": DTrace for Linux runs as root",
                          "run jbench as root (sudo)");
  }
  return std::nullopt;
}

}  // namespace

namespace {

// The providers of `dtrace -l` ("ID PROVIDER MODULE FUNCTION NAME" rows) and their probe counts;
// a process's own providers (pid123, jbench456) are left out.
std::map<std::string, int> dtrace_providers(const std::string& out) {
  std::map<std::string, int> providers;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    std::istringstream row(line);
    std::string id, provider;
    if (!(row >> id >> provider) || id == "ID") continue;
    if (!provider.empty() && std::isdigit(static_cast<unsigned char>(provider.back()))) continue;
    ++providers[provider];
  }
  return providers;
}

// The proof: a BEGIN probe that prints; then the providers jbench's D programs use (syscall, proc,
// profile), each present. A D library file that does not compile here stops every script: its
// remediation names the library directory.
Check prove_dtrace(const ProbeContext& ctx, const host_caps::DtraceFound& found,
                   const std::string& name) {
  const std::vector<std::string> argv{found.path, "-q", "-n", kDtraceAttachProgram};
  const int timeout = std::max(ctx.options.attach_timeout_ms, 30'000);  // it starts in ~2 s
  const ToolRun run = proc::run_to_completion(argv, ctx.options.path_env, timeout);
  const bool printed = run.started && !run.timed_out && !run.signaled && run.exit_code == 0 &&
                       run.out.find(kAttachMarker) != std::string::npos;
  const Evidence evidence = evidence_of(argv, run, found.version);
  if (!printed) {
    const bool library = run.err.find(".d\", line") != std::string::npos;
    Check c = Check::missing(
        "dtrace", "attach_failed", name + ": the BEGIN probe test " + ending(run, timeout),
        library ? "a file of DTrace's D library directory does not compile on this kernel (see "
                  "stderr): leave it out of the directory, or point DTRACE_OPT_SYSLIBDIR at one "
                  "without it (ci/dtrace-linux.sh leaves io.d out for this reason)"
                : "run `" + found.path + " -n 'BEGIN { exit(0); }'` by hand and read its stderr");
    return with_tool_proof(std::move(c), evidence, found.path, false);
  }
  const ToolRun list =
      proc::run_to_completion({found.path, "-l"}, ctx.options.path_env, timeout, 4u << 20);
  const auto providers = dtrace_providers(list.out);
  std::string missing;
  for (const char* p : {"syscall", "proc", "profile"}) {
    if (!providers.count(p)) missing += (missing.empty() ? "" : ", ") + std::string(p);
  }
  Check c = missing.empty()
                ? Check::ok("dtrace", name +
                                          ": enabled a BEGIN probe and saw its output; the "
                                          "syscall, proc and profile providers are present; "
                                          "jbench run --syscall-backend dtrace uses it")
                : Check::missing("dtrace", "probe_not_found",
                                 name + ": no " + missing + " provider (`dtrace -l`)",
                                 "a DTrace whose kernel side offers them: on Linux, a kernel with "
                                 "syscall tracepoints and perf events (see the tracefs check)");
  c = with_tool_proof(std::move(c), evidence, found.path, missing.empty());
  c.facts["providers"] = providers;
  return c;
}

}  // namespace

// A real DTrace (host_caps::find_dtrace: $JBENCH_DTRACE, else a dtrace on PATH that says it is
// one), what it needs here, and, when attaching is allowed, a BEGIN probe that prints.
Check check_dtrace(const ProbeContext& ctx, const std::vector<Check>& before) {
  std::optional<std::string> chosen = ctx.options.dtrace_override;
  if (!chosen) {
    const char* env = std::getenv("JBENCH_DTRACE");
    if (env && *env) chosen = env;
  } else if (chosen->empty()) {
    chosen.reset();
  }
  const auto found = host_caps::find_dtrace(ctx.options.path_env, chosen);
  if (found.path.empty()) return no_dtrace(ctx, found, chosen.has_value());
  const std::string name = fmt::format("{} ({})", found.path, found.version);
  Check c;
  if (auto blocked = dtrace_blocked(ctx, before, name)) {
    c = std::move(*blocked);
  } else if (!ctx.options.try_attach) {
    c = Check::ok("dtrace", name + "; attach not tried (--no-attach): not proven");
  } else {
    c = prove_dtrace(ctx, found, name);
  }
  c.facts["kind"] = "dtrace";
  c.facts["path"] = found.path;
  c.facts["version"] = found.version;
  return c;
}

}  // namespace jbench::doctor
