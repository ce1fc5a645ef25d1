// Pure parsing of what the capability probe reads and runs, apart from the reading and running so
// that every case can be tested with a string. Each returns nullopt when the text is not what the
// kernel or the tool writes.
//
//   parse_sysctl_int("2\n")                          -> 2
//   parse_cap_mask("CapEff:\t000001ffffffffff\n...")  -> 0x1ffffffffff
//   parse_lockdown("[none] integrity confidentiality") -> "none"
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "jbench/host_caps/privilege.h"

namespace jbench::doctor {

// A /proc/sys integer ("-1\n", "2").
std::optional<long> parse_sysctl_int(const std::string& text);

// The Uid and CapEff parsers and the capability numbers live in jbench::host_caps (shared with
// the syscall collector's compiled-tracer probe); they are named here too for the probe's checks.
using host_caps::has_capability;
using host_caps::parse_cap_mask;
using host_caps::parse_effective_uid;
using enum host_caps::Capability;

// "CAP_BPF, CAP_PERFMON" for those of the capabilities above present in `mask`, "" when none.
std::string relevant_capability_names(std::uint64_t mask);

// The bracketed mode of /sys/kernel/security/lockdown ("none", "integrity", "confidentiality").
std::optional<std::string> parse_lockdown(const std::string& text);

// "bpftrace v0.17.0" -> "0.17.0".
std::optional<std::string> parse_bpftrace_version(const std::string& out);
// "strace -- version 6.1\n..." -> "6.1".
std::optional<std::string> parse_strace_version(const std::string& out);
// systemtap's dtrace prints a usage naming "systemtap" and its -h/-G modes; a DTrace tracer
// does not.
bool is_systemtap_dtrace(const std::string& output);

// What macOS System Integrity Protection lets DTrace do, read from `csrutil status`. The forms
// its versions print (fixtures in tests/fixtures/csrutil/):
//   System Integrity Protection status: enabled.           (or "disabled.")
//   System Integrity Protection status: enabled (Custom Configuration).    (10.11 to 10.14)
//   System Integrity Protection status: unknown (Custom Configuration).    (10.15 and later)
// a custom configuration being followed by "Configuration:" and one tab-indented
// "<Protection>: enabled|disabled" line per protection, "DTrace Restrictions" among them.
//
//   parse_csrutil_status("System Integrity Protection status: enabled.\n").dtrace
//       -> SipDtrace::restricted
//
// The "DTrace Restrictions" line decides a custom configuration; the overall status decides
// the plain forms. Anything else — no status line, a status word or note not listed above, a
// custom configuration without its DTrace line, a DTrace line that contradicts the status — is
// `unknown` with `why_unknown` saying which, never a guess.
enum class SipDtrace { allowed, restricted, unknown };
struct SipProtection {
  std::string name;   // "DTrace Restrictions"
  std::string value;  // "enabled" or "disabled" (any other word makes the verdict unknown)
};
struct SipStatus {
  std::string status;  // the status line's word: "enabled", "disabled", "unknown"; "" if none
  bool custom_configuration = false;
  std::vector<SipProtection> protections;  // the Configuration block, in printed order
  SipDtrace dtrace = SipDtrace::unknown;
  std::string why_unknown;  // set when dtrace is unknown
};
SipStatus parse_csrutil_status(const std::string& out);

// The errno name (EPERM, EACCES, ...) whose strerror text or name appears in a tool's stderr;
// "" when none does. bpftrace and strace report failed system calls that way.
std::string errno_name_in(const std::string& stderr_text);

// At most `max_bytes` of `text`, cut at a line end when possible, "…" marking a cut.
std::string excerpt(const std::string& text, std::size_t max_bytes = 1024);

// A command line for display, each argument quoted when it holds shell metacharacters.
std::string display_command(const std::vector<std::string>& argv);

}  // namespace jbench::doctor
