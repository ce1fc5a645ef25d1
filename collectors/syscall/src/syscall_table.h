// The system calls the collector traces, as data: one row per call, shared by the bpftrace script
// generator, both output parsers and the summaries, so a call has one id and one name
// everywhere. Also the bounded tables that name what a call asked for (ioctl requests, fcntl
// commands, flock operations) and errno names.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "jbench/collectors/api/phases.h"

namespace jbench::collectors::syscall_detail {

// How a call names what it works on: a path (the opens), a descriptor, or a descriptor plus a
// request code (flock's operation, fcntl's command, ioctl's request); or, for a wait off the CPU,
// a request code alone (the system call it blocked in).
enum class ArgKind { path, fd, fd_request, request };

struct TracedCall {
  int id;                 // stable within a run: the script prints it, the parsers read it
  std::string_view name;  // the kernel's name (sys_enter_<name>)
  ArgKind kind;
  bool has_dfd;          // openat/openat2: the first argument is a directory descriptor
  bool off_cpu = false;  // not a system call: an interval off the CPU (below)
};

// Whether records of the call carry a request code (request_name names it).
inline bool has_request(const TracedCall& call) {
  return call.kind == ArgKind::fd_request || call.kind == ArgKind::request;
}

// Every traced system call, id == index.
std::span<const TracedCall> traced_calls();
// The compiled tracer's scheduler intervals of a cohort thread outside its traced calls, counted
// and recorded as calls of their own after the system calls (no descriptor, no file): off the CPU
// blocked until woken ("off-cpu:blocked"), and runnable until run again ("off-cpu:runnable").
std::span<const TracedCall> off_cpu_calls();
// The compiled tracer's totals of every other system call of the cohort ("syscall:other"),
// whose request is the call's number plus one: counted and timed per number, in both details,
// never a call record (its time off the CPU is the thread's off-CPU intervals').
const TracedCall& other_syscalls();
// Any of these, by name or id.
const TracedCall* find_call(std::string_view name);
const TracedCall* call_by_id(int id);

// The canary is recognised in these (docs/worker-protocol.md: raw faccessat; faccessat2 and
// access too, for runtimes whose libc turns faccessat into them).
inline constexpr std::string_view kCanaryPrefix = "/jbench-canary/";
bool is_canary_call(std::string_view name);

// The phase marker: the harness calls getpgid(kPhaseMarkerBase + phase). No pid is that large
// (PID_MAX_LIMIT is 2^22), so the call fails with ESRCH and touches nothing.
inline constexpr std::int64_t kPhaseMarkerBase = 0x7fff0000;
// Before stopping: getpgid(kSyncMarkerBase + n) comes back as a line once bpftrace has read its
// buffers up to it (an interrupted bpftrace drops what it has not read yet).
inline constexpr std::int64_t kSyncMarkerBase = 0x7ffe0000;
// A process the harness adds after the start: getpgid(kJoinMarkerBase + pid).
inline constexpr std::int64_t kJoinMarkerBase = 0x40000000;

// A phase's number is its index in kPhases (jbench/collectors/api/phases.h).
inline constexpr int kPhaseCount = static_cast<int>(kPhases.size());
// The phase in which the workers still run after measuring (their mappings can be read).
inline constexpr int kTeardownPhase = 3;
static_assert(kPhases[kTeardownPhase] == "teardown");
std::optional<int> phase_number(std::string_view name);

// The host's name of system call `nr` ("clock_nanosleep"), or "syscall <nr>" where the build
// found no table or the number is not in it.
std::string syscall_name(std::uint64_t nr);

// A blocked wait off the CPU carries the system call it blocked in as its request: the number
// plus one, and kOutsideSyscall (0) when the thread was in none (a page fault, the kernel's own
// wait).
inline constexpr std::uint64_t kOutsideSyscall = 0;

// "TCGETS", "F_SETLK", "LOCK_EX|LOCK_NB", "clock_nanosleep" (off-cpu:blocked); unknown codes as
// "0x..." (ioctl) or the number.
std::string request_name(const TracedCall& call, std::uint64_t request);

// "ENOENT" for 2; "E<number>" when glibc has no name.
std::string errno_name(int error);
// 2 for "ENOENT"; nullopt for a name glibc does not know.
std::optional<int> errno_from_name(std::string_view name);

}  // namespace jbench::collectors::syscall_detail
