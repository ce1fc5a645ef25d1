// Who this process is to the kernel's tracing checks: its effective uid and effective capability
// mask, read from <root>/proc/self/status (root "" = the real filesystem), and the pure parsers
// of those lines. One reading for `jbench doctor`'s privilege checks and the syscall collector's
// compiled-tracer probe, so that both judge privilege the same way.
//
//   const ProcessPrivilege p = read_process_privilege();
//   if (!p.bpf_privileged()) { ... p.why when p.euid or p.cap_eff is missing ... }
//
//   parse_cap_mask("CapEff:\t000001ffffffffff\n...", "CapEff") -> 0x1ffffffffff
//   parse_effective_uid("Uid:\t1000\t0\t0\t0\n")              -> 0
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace jbench::host_caps {

// The hexadecimal mask of the `field` line ("CapEff") of /proc/<pid>/status.
std::optional<std::uint64_t> parse_cap_mask(const std::string& status, const std::string& field);

// The effective uid: the second number of the "Uid:" line of /proc/<pid>/status.
std::optional<long> parse_effective_uid(const std::string& status);

// Capability numbers (linux/capability.h) the tracing checks care about.
enum Capability : int {
  kCapSysPtrace = 19,
  kCapSysAdmin = 21,
  kCapSysResource = 24,
  kCapPerfmon = 38,
  kCapBpf = 39,
};
bool has_capability(std::uint64_t mask, int capability);

struct ProcessPrivilege {
  std::optional<long> euid;
  std::optional<std::uint64_t> cap_eff;
  std::string why;  // why euid or cap_eff is missing ("cannot open <path>: <strerror>", ...)

  bool has(int capability) const { return cap_eff && has_capability(*cap_eff, capability); }
  // May load BPF tracing programs and open perf events regardless of the sysctls: CAP_SYS_ADMIN,
  // or CAP_BPF with CAP_PERFMON (kernel 5.8 or later).
  bool bpf_privileged() const { return has(kCapSysAdmin) || (has(kCapBpf) && has(kCapPerfmon)); }
};

// <root>/proc/self/status's Uid and CapEff lines.
ProcessPrivilege read_process_privilege(const std::string& root = "");

}  // namespace jbench::host_caps
