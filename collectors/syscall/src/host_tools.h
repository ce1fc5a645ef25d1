// What this host offers the backends, probed cheaply before each start (no attach: that is the
// backend's own proof): the tools on PATH, tracefs and its syscall tracepoints, privilege,
// ptrace's Yama scope; and the offset between CLOCK_REALTIME and CLOCK_MONOTONIC that turns
// strace's timestamps into jbench's clock. `jbench doctor` gives the full picture.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/common/path_search.h"

namespace jbench::collectors::syscall_detail {

// The absolute path of `tool` in $PATH, or "" (one implementation, in jbench::common).
using jbench::find_on_path;

// Why a backend cannot run here and how to fix it; empty reason when it may be tried.
struct Unavailable {
  std::string reason;
  std::string remediation;
  bool empty() const { return reason.empty(); }
};
Unavailable bpftrace_unavailable(const std::string& bpftrace, const std::string& tracefs);
Unavailable strace_unavailable(const std::string& strace);

// The first line of `tool --version` (bpftrace "bpftrace v0.17.0", strace "strace -- version
// 6.1"), bounded by a deadline; "" if it could not be read.
std::string tool_version(const std::string& tool, const char* flag);

// CLOCK_REALTIME - CLOCK_MONOTONIC, from the tightest of several back-to-back readings, and how
// far apart the two readings of that sample were (its uncertainty).
struct ClockOffset {
  std::int64_t realtime_minus_monotonic_ns = 0;
  std::uint64_t uncertainty_ns = 0;
};
ClockOffset measure_clock_offset();
// CLOCK_BOOTTIME - CLOCK_MONOTONIC (the time the host spent suspended; constant while it runs).
std::uint64_t boottime_minus_monotonic_ns();

// The thread group (process) of thread `tid`, from /proc/<tid>/status; nullopt if gone.
std::optional<pid_t> thread_group_of(pid_t tid);
// The tracer of every thread of `pid` (/proc/<pid>/task/*/status TracerPid) is `tracer`.
bool all_threads_traced_by(pid_t pid, pid_t tracer);
// The thread ids of `pid` now (/proc/<pid>/task); empty if it is gone.
std::vector<pid_t> threads_of(pid_t pid);

}  // namespace jbench::collectors::syscall_detail
