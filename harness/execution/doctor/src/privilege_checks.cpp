// The privilege state: who we are, what we may do, and the sysctls and kernel modes that restrict
// tracing. Values come from <root>/proc and <root>/sys so that tests can fake every one.
#include <fmt/format.h>

#include <cerrno>

#include "checks.h"
#include "host_files.h"
#include "jbench/common/small_file.h"
#include "jbench/doctor/parsers.h"
#include "jbench/host_caps/remediation.h"
#include "jbench/host_caps/yama.h"

namespace jbench::doctor {
namespace {

using host_caps::kGrantBpf;

// A /proc/sys integer, or the not_available check saying why it could not be read.
std::optional<long> read_sysctl(const ProbeContext& ctx, const std::string& name,
                                const std::string& file, Check& failure) {
  const std::string path = ctx.path(file);
  const auto text = read_small_file(path);
  if (!text) {
    failure = Check::missing(name, "unreadable", text.error().message,
                             fmt::format("make {} readable (is /proc mounted?)", path));
    return std::nullopt;
  }
  auto value = parse_sysctl_int(*text);
  if (!value) {
    failure = Check::missing(
        name, "unreadable", fmt::format("{} holds '{}', not an integer", path, excerpt(*text, 64)),
        fmt::format("check {}: the kernel writes a single integer there", path));
  }
  return value;
}

}  // namespace

bool ProbeContext::has(int capability) const {
  return cap_eff && has_capability(*cap_eff, capability);
}

bool ProbeContext::bpf_privileged() const {
  return has(kCapSysAdmin) || (has(kCapBpf) && has(kCapPerfmon));
}

Check check_os(const ProbeContext& ctx) {
  if (ctx.linux_host())
    return Check::ok("os", "Linux: the libbpf, bpftrace and strace backends apply");
  return Check::missing(
      "os", "unsupported_os",
      fmt::format("{}: jbench's tracing backends (bpftrace, strace) are Linux's; no DTrace backend "
                  "exists yet",
                  ctx.os),
      "run traced matrices on Linux (kernel 5.8 or later); untraced (baseline) runs work here");
}

Check check_effective_uid(const ProbeContext& ctx) {
  const std::string status = ctx.path("/proc/self/status");
  if (!ctx.euid) {
    return Check::missing("effective_uid", "unreadable", ctx.status_why,
                          fmt::format("make {} readable (is /proc mounted?)", status));
  }
  Check c = *ctx.euid == 0
                ? Check::ok("effective_uid", "0 (root)")
                : Check::missing("effective_uid", "denied_privilege",
                                 fmt::format("{} (not root)", *ctx.euid),
                                 "run jbench as root (sudo), or grant the capabilities named by "
                                 "the capabilities check");
  c.facts["euid"] = *ctx.euid;
  return c;
}

Check check_capabilities(const ProbeContext& ctx) {
  const std::string status = ctx.path("/proc/self/status");
  if (!ctx.cap_eff) {
    return Check::missing("capabilities", "unreadable", ctx.status_why,
                          fmt::format("make {} readable (is /proc mounted?)", status));
  }
  const std::string held = relevant_capability_names(*ctx.cap_eff);
  const std::string mask = fmt::format("CapEff {:016x}", *ctx.cap_eff);
  Check c =
      ctx.bpf_privileged()
          ? Check::ok("capabilities", fmt::format("{}: {}", mask, held))
          : Check::missing("capabilities", "denied_privilege",
                           fmt::format("{}: {} (BPF tracing needs CAP_BPF and CAP_PERFMON, "
                                       "or CAP_SYS_ADMIN)",
                                       mask, held.empty() ? "none of the relevant ones" : held),
                           kGrantBpf);
  c.facts["cap_eff"] = fmt::format("{:016x}", *ctx.cap_eff);
  c.facts["relevant"] = held;
  return c;
}

Check check_perf_event_paranoid(const ProbeContext& ctx) {
  Check failure;
  auto value =
      read_sysctl(ctx, "perf_event_paranoid", "/proc/sys/kernel/perf_event_paranoid", failure);
  if (!value) return failure;
  Check c;
  if (ctx.has(kCapPerfmon) || ctx.has(kCapSysAdmin)) {
    c = Check::ok("perf_event_paranoid",
                  fmt::format("{} (does not apply: this process holds CAP_PERFMON or "
                              "CAP_SYS_ADMIN)",
                              *value));
  } else if (*value <= -1) {
    c = Check::ok("perf_event_paranoid",
                  fmt::format("{}: unprivileged tracepoint events allowed", *value));
  } else {
    c = Check::missing(
        "perf_event_paranoid", "disabled_by_sysctl",
        fmt::format("{}: an unprivileged process may not open tracepoint perf events (needs -1)",
                    *value),
        "sudo sysctl -w kernel.perf_event_paranoid=-1, or run as root / grant CAP_PERFMON");
  }
  c.facts["value"] = *value;
  return c;
}

Check check_ptrace_scope(const ProbeContext& ctx) {
  const std::string file = host_caps::kYamaPtraceScopeFile;
  const auto text = read_small_file(ctx.path(file));
  if (!text && text.error().sys_errno == ENOENT) {
    return Check::ok("ptrace_scope",
                     "Yama is not active (no " + ctx.path(file) +
                         "): the ordinary ptrace rules apply (same user may trace)");
  }
  Check failure;
  auto value = read_sysctl(ctx, "ptrace_scope", file, failure);
  if (!value) return failure;
  Check c;
  switch (*value) {
    case 0:
      c = Check::ok("ptrace_scope", "0 (classic): a process may trace any process of its user");
      break;
    case 1:
      // jbench's strace backend attaches to running workers (strace -p): they are not strace's
      // descendants, so scope 1 lets only a holder of CAP_SYS_PTRACE do it (the collector's
      // own rule, collectors/syscall/src/host_tools.cpp).
      c = ctx.has(kCapSysPtrace)
              ? Check::ok("ptrace_scope",
                          "1 (restricted): this process holds CAP_SYS_PTRACE, so it may attach "
                          "to the workers (strace -p)")
              : Check::missing("ptrace_scope", "denied_privilege",
                               "1 (restricted): attaching to a running worker (strace -p, as "
                               "jbench does) needs CAP_SYS_PTRACE, which this process lacks",
                               "run as root, or sudo sysctl -w kernel.yama.ptrace_scope=0");
      break;
    case 2:
      c = ctx.has(kCapSysPtrace)
              ? Check::ok("ptrace_scope", "2 (admin-only): this process holds CAP_SYS_PTRACE")
              : Check::missing("ptrace_scope", "denied_privilege",
                               "2 (admin-only): ptrace needs CAP_SYS_PTRACE, which this process "
                               "lacks",
                               "run as root, or sudo sysctl -w kernel.yama.ptrace_scope=0");
      break;
    case 3:
      c = Check::missing("ptrace_scope", "disabled_by_sysctl",
                         "3 (no attach): ptrace is refused to everyone until reboot",
                         "set kernel.yama.ptrace_scope=1 (enough as root) or 0 (any user) in "
                         "/etc/sysctl.d/10-ptrace.conf and reboot (scope 3 cannot be lowered at "
                         "run time)");
      break;
    default:
      c = Check::missing("ptrace_scope", "unreadable",
                         fmt::format("{}: not a Yama ptrace scope (0-3)", *value),
                         "check " + ctx.path(file));
  }
  c.facts["value"] = *value;
  return c;
}

Check check_unprivileged_bpf(const ProbeContext& ctx) {
  Check failure;
  auto value =
      read_sysctl(ctx, "unprivileged_bpf", "/proc/sys/kernel/unprivileged_bpf_disabled", failure);
  if (!value) return failure;
  Check c;
  if (ctx.bpf_privileged() || ctx.has(kCapBpf)) {
    c = Check::ok(
        "unprivileged_bpf",
        fmt::format("{} (does not apply: this process holds CAP_BPF or CAP_SYS_ADMIN)", *value));
  } else if (*value == 0) {
    c = Check::ok("unprivileged_bpf",
                  "0: unprivileged bpf() allowed (tracing programs still need CAP_BPF and "
                  "CAP_PERFMON)");
  } else {
    c = Check::missing(
        "unprivileged_bpf", "disabled_by_sysctl",
        fmt::format("{}: bpf() is refused to unprivileged processes{}", *value,
                    *value == 1 ? " until reboot" : ""),
        *value == 1
            ? std::string(kGrantBpf) +
                  " (kernel.unprivileged_bpf_disabled=1 cannot be lowered until reboot)"
            : std::string(kGrantBpf) + "; or sudo sysctl -w kernel.unprivileged_bpf_disabled=0");
  }
  c.facts["value"] = *value;
  return c;
}

Check check_lockdown(const ProbeContext& ctx) {
  const std::string path = ctx.path("/sys/kernel/security/lockdown");
  const auto text = read_small_file(path);
  if (!text) {
    if (text.error().sys_errno == ENOENT) {
      return Check::ok("lockdown", path +
                                       " is absent: no lockdown LSM (or securityfs not mounted); "
                                       "nothing seen to restrict tracing");
    }
    return Check::missing("lockdown", "unreadable", text.error().message,
                          "make " + path +
                              " readable (mount -t securityfs none "
                              "/sys/kernel/security)");
  }
  auto mode = parse_lockdown(*text);
  if (!mode) {
    return Check::missing(
        "lockdown", "unreadable",
        fmt::format("{} holds '{}', not a lockdown mode list", path, excerpt(*text, 80)),
        "check " + path);
  }
  Check c;
  if (*mode == "confidentiality") {
    c = Check::missing("lockdown", "locked_down",
                       "confidentiality: the kernel refuses BPF reads of kernel memory and tracefs",
                       "boot with lockdown=none or lockdown=integrity on the kernel command line "
                       "(with Secure Boot, disable its enforcement: mokutil --disable-validation)");
  } else if (*mode == "integrity") {
    c = Check::ok("lockdown",
                  "integrity: tracing works; bpftrace's unsafe builtins (system(), writes to user "
                  "memory) are refused");
  } else {
    c = Check::ok("lockdown", "none");
  }
  c.facts["mode"] = *mode;
  return c;
}

}  // namespace jbench::doctor
