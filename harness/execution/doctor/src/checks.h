// Internal: the probe's checks, one function per line of `jbench doctor`. Each takes the context
// read once (options, the process status) and the checks made before it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "check.h"
#include "jbench/collectors/syscall/compiled_tracer.h"
#include "jbench/doctor/capabilities.h"

namespace jbench::doctor {

struct ProbeContext {
  ProbeOptions options;  // path_env already defaulted to $PATH
  std::string os;        // uname sysname: "Linux", "Darwin"
  // From <root>/proc/self/status; nullopt when it cannot be read or parsed.
  std::optional<long> euid;
  std::optional<std::uint64_t> cap_eff;
  std::string status_why;  // why they are missing

  std::string path(const std::string& absolute) const { return options.root + absolute; }
  bool linux_host() const { return os == "Linux"; }
  bool has(int capability) const;
  // May load BPF tracing programs and open perf events regardless of the sysctls.
  bool bpf_privileged() const;
};

// Host and privilege state (privilege_checks.cpp).
Check check_os(const ProbeContext& ctx);
Check check_effective_uid(const ProbeContext& ctx);
Check check_capabilities(const ProbeContext& ctx);
Check check_perf_event_paranoid(const ProbeContext& ctx);
Check check_ptrace_scope(const ProbeContext& ctx);
Check check_unprivileged_bpf(const ProbeContext& ctx);
Check check_lockdown(const ProbeContext& ctx);
// macOS only (sip_check.cpp): runs `csrutil status`. sip_check_for is the pure part, the check
// a `csrutil status` output makes (available when SIP lets DTrace trace).
Check check_sip(const ProbeContext& ctx);
Check sip_check_for(const std::string& csrutil_out);

// Kernel tracing interfaces (kernel_checks.cpp). The tracefs check's facts hold its "path".
Check check_tracefs(const ProbeContext& ctx);
Check check_syscall_tracepoints(const ProbeContext& ctx, const Check& tracefs);
Check check_uprobes(const ProbeContext& ctx, const Check& tracefs);

// Tools (tool_checks.cpp).
Check check_bpftrace(const ProbeContext& ctx, const std::vector<Check>& before);
Check check_strace(const ProbeContext& ctx, const std::vector<Check>& before);
// The compiled syscall tracer (compiled_tracer_check.cpp): built in, and loaded here unless
// --no-attach; facts.attach_verified says which.
Check check_compiled_tracer(const ProbeContext& ctx, const std::vector<Check>& before);
// Its pure part: the check a probe's result makes (the lockdown check may explain a refusal).
Check compiled_tracer_check_for(const collectors::CompiledTracerProbe& probe,
                                const Check& lockdown);
Check check_dtrace(const ProbeContext& ctx, const std::vector<Check>& before);

// Instruction counting, for counted runs (counter_checks.cpp): the hardware counter through
// perf_event_open, and valgrind's callgrind (run on a real program unless --no-attach).
Check check_instructions_counter(const ProbeContext& ctx);
Check check_callgrind(const ProbeContext& ctx);

// The chosen backend per kind of event, with the alternatives and why (backends.cpp).
nlohmann::json choose_backends(const std::vector<Check>& checks);

}  // namespace jbench::doctor
