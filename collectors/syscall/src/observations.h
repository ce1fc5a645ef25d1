// What a backend observed, in one shape whatever the backend: completed calls, canaries, the
// processes it followed, and the totals it aggregated at the source. The parsers produce these;
// the summaries and the raw event file are made from them.
//
// Times are CLOCK_MONOTONIC nanoseconds. pids are tgids, tids thread ids.
#pragma once

#include <sys/types.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace jbench::collectors::syscall_detail {

// How many malformed lines of a backend's output a parser quotes (it counts them all).
inline constexpr std::size_t kMaxMalformedExamples = 3;

// A file as the kernel knows it: the superblock's device (major:minor) and the inode number.
struct FileIdentity {
  std::uint32_t major = 0;
  std::uint32_t minor = 0;
  std::uint64_t inode = 0;
  bool operator==(const FileIdentity&) const = default;
  auto operator<=>(const FileIdentity&) const = default;
  std::string to_string() const;  // "254:0:10952747"
};

// Which of a process's threads made a call: the workload's own, or jbench's trace-bridge writer
// (the observer's). Only the compiled tracer tells them apart.
enum class ThreadRole { workload = 0, bridge_writer = 1 };
// The compiled tracer's JB_ROLE_* code (syscall_trace.h) as a role: 1 is the bridge writer's.
inline ThreadRole thread_role_of(unsigned code) {
  return code == 1 ? ThreadRole::bridge_writer : ThreadRole::workload;
}

// One completed system call.
struct CallRecord {
  pid_t pid = 0;
  pid_t tid = 0;
  ThreadRole role = ThreadRole::workload;
  std::uint64_t t_ns = 0;              // entry
  std::uint64_t duration_ns = 0;       // entry to exit
  int call = -1;                       // TracedCall::id
  int phase = 0;                       // the phase in force at entry
  std::int64_t fd = -1;                // the descriptor (fd calls) or directory descriptor (openat)
  std::optional<std::int64_t> result;  // the return value; negative: -errno; none: unknown
  std::optional<std::uint64_t> request;  // flock operation, fcntl command, ioctl request
  std::optional<FileIdentity> file;      // of fd, or of the descriptor an open returned
  std::string path;             // opens: the path asked for; fd calls: what the backend knew
  bool path_truncated = false;  // the backend cut the path at its string limit
  std::optional<std::string> result_path;  // opens: what the returned descriptor names
  // The compiled tracer, full: who last woke the thread while in the call or the blocked wait.
  struct Waker {
    std::string_view how;  // "task", "interrupt", "kernel_thread"
    pid_t pid = 0;         // the waker's process and thread, for a task (0 for an interrupt)
    pid_t tid = 0;
    // When it woke the thread (sched_waking, CLOCK_MONOTONIC ns), within the record; unset
    // when the record does not say (records of an earlier version).
    std::optional<std::uint64_t> woken_ns;
  };
  std::optional<Waker> waker;
};

// The compiled tracer, full: one on-CPU sample of a cohort thread, its user stack leaf first
// (return addresses in the process's address space; symbolized against its maps).
struct CpuSample {
  pid_t pid = 0;
  pid_t tid = 0;
  std::uint64_t t_ns = 0;
  int phase = 0;
  ThreadRole role = ThreadRole::workload;
  bool in_kernel = false;           // it interrupted the kernel (a system call, a fault)
  std::vector<std::uint64_t> ips;   // empty with stack_error
  int stack_error = 0;              // the kernel's errno when the stack could not be read
  std::vector<std::string> frames;  // ips named (symbolize.h), leaf first
};

struct CanaryHit {
  pid_t pid = 0;
  pid_t tid = 0;
  std::uint64_t t_ns = 0;
  std::string path;
};

// A process the backend saw appear in the cohort: a fork of a member, or a registered member's
// first traced call (which confirms its start time).
struct ProcessSeen {
  pid_t pid = 0;
  pid_t parent = 0;
  std::optional<std::uint64_t> start_boottime_ns;  // the kernel's start_boottime (bpftrace)
  std::uint64_t t_ns = 0;                          // when it was seen
};

// Totals aggregated in the kernel (light): per (pid, phase, call).
struct TotalsKey {
  pid_t pid = 0;
  int phase = 0;
  int call = -1;
  ThreadRole role = ThreadRole::workload;
  auto operator<=>(const TotalsKey&) const = default;
};

struct Totals {
  std::uint64_t count = 0;
  std::uint64_t errors = 0;
  std::uint64_t total_ns = 0;
  std::uint64_t max_ns = 0;
  std::map<std::uint64_t, std::uint64_t> log2_buckets;  // lower bound (0, 1, 2, 4, ...) -> count
  std::map<std::uint64_t, std::uint64_t> requests;      // request code -> count
  std::map<std::uint64_t, std::uint64_t> request_errors;
  // request code -> the time of its calls, where the backend keeps it apart (not bpftrace's)
  std::map<std::uint64_t, std::uint64_t> request_ns;
};

}  // namespace jbench::collectors::syscall_detail
