// The D program of one run, generated from the traced-call table (pure: text in, text out), for
// DTrace's syscall and proc providers (DTrace for Linux names the calls as the kernel does:
// syscall::pread64:entry). It prints the same lines as the bpftrace program (bpftrace_script.h,
// read by program_lines.h), so both backends make the same observations:
//
//   B 1 | M <phase> <t> | S <n> <t> | J <pid> <t> | F <parent> <child> <t>
//   P <pid> <start_boottime_ns> <parent> <t> | K <pid> <tid> <t> <path>
//   O <tid> <t> <path>
//   C <call> <pid> <tid> <t> <dur> <phase> <fd> <ret> <request> <maj> <min> <ino> <role>
//
// and, light, at exit its aggregations keyed (pid, phase, call, role), one line each:
//   A t|x|r <pid> <phase> <call> <role> <value>            total ns, max ns, errors
//   A q|qe <pid> <phase> <call> <role> <request> <value>   per request: count, errors
//   A h <pid> <phase> <call> <role>    followed by quantize()'s rows: log2 buckets, and the count
//
// In full detail, on-CPU samples of cohort threads from the profile provider:
//   X <pid> <tid> <t> <phase> <role> <in_kernel>    then ustack()'s rows, leaf first
//
// Unlike the bpftrace program it tells the trace bridge's writer thread apart (role 1, by the
// thread's name at its first traced call), as the compiled tracer does.
//
// Scope is decided in the kernel as in the bpftrace program: `cohort[pid]` holds the registered
// processes (2 until their first traced call announces them, 1 after), a member's fork joins, a
// process the harness adds joins through a marker call, an exiting leader leaves. The phase is
// the global `phase`, set by the harness's marker call getpgid(kPhaseMarkerBase + phase); a call
// belongs to the phase in force when it entered. Entry state is thread-local (self->).
#pragma once

#include <string>

#include "bpftrace_script.h"

namespace jbench::collectors::syscall_detail {

// DTrace's string limit as this program sets it (strsize): paths are cut at one less.
inline constexpr std::size_t kDtraceStringLimit = 512;
// Full detail's on-CPU samples: the profile provider's rate per CPU (the compiled tracer's too),
// and the deepest user stack kept.
inline constexpr int kDtraceSampleHz = 99;
inline constexpr int kDtraceStackFrames = 32;

// `spec.calls` and `spec.canary_calls` name probes the host's syscall provider has.
std::string dtrace_script(const ScriptSpec& spec);

}  // namespace jbench::collectors::syscall_detail
