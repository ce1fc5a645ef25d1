// Reading strace's output (the privilege-free backend). Pure: lines in, observations out.
//
// strace runs as
//   strace -f -X raw -y --absolute-timestamps=format:unix,precision:ns --syscall-times=ns
//          -s 256 -e trace=<calls> -e signal=none -o /dev/stdout -p PID ...
// so each line is "<tid> <realtime s.ns> <call>(<args>) = <result> <<duration s>>", with the
// "<unfinished ...>" / "<... call resumed>" halves when calls of two threads interleave.
//
// strace stamps lines with CLOCK_REALTIME when it handles the stop. The reader converts each to
// CLOCK_MONOTONIC by subtracting `realtime_minus_monotonic_ns`, measured by the collector when
// strace started (and checked again at the end for a step of the clock). The prefix number is
// a thread id: the reader keeps it as `tid` and leaves `pid` 0; the collector fills in the
// process from the thread ids it resolved while the run went on.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "observations.h"

namespace jbench::collectors::syscall_detail {

// A thread or process a traced thread made (clone, clone3, fork, vfork), as strace recorded it:
// the one source of a new thread's process that cannot vanish before it is read.
struct StraceCreation {
  pid_t creator_tid = 0;
  pid_t child_tid = 0;
  bool thread = false;     // CLONE_THREAD: a thread of the creator's process; else a new process
  std::uint64_t t_ns = 0;  // when the call began (CLOCK_MONOTONIC)
};

struct StraceObservations {
  std::vector<CallRecord> calls;  // in output order; pid 0, phase 0 (the collector assigns them)
  std::vector<CanaryHit> canaries;
  std::vector<StraceCreation> creations;  // in output order
  std::uint64_t in_progress = 0;  // halves without their other half (a call under way at attach
                                  // or at detach): not counted
  std::uint64_t ignored = 0;      // lines about other calls, exits and signals
  std::uint64_t malformed = 0;
  std::vector<std::string> malformed_examples;
};

// The calls that make threads and processes: traced beside the measured calls only to learn
// which process each new thread belongs to (never counted as calls).
inline constexpr const char* kCreationCalls[] = {"clone", "clone3", "fork", "vfork"};

// The thread id that starts a line, if the line has one (the monitor uses it while the run goes
// on, to learn each thread's process before the thread can vanish).
std::optional<pid_t> strace_line_tid(std::string_view line);
bool strace_line_is_canary(std::string_view line);

class StraceReader {
 public:
  explicit StraceReader(std::int64_t realtime_minus_monotonic_ns)
      : offset_ns_(realtime_minus_monotonic_ns) {}
  void line(std::string_view text);
  StraceObservations finish();

 private:
  struct Pending {
    std::string call;
    std::uint64_t t_ns = 0;
    std::string args;
  };
  void complete(pid_t tid, std::uint64_t t_ns, std::string_view call, std::string_view rest,
                std::string_view raw);
  void creation(pid_t tid, std::uint64_t t_ns, std::string_view call, std::string_view args,
                std::string_view result, std::string_view raw);
  void malformed(std::string_view raw);

  std::int64_t offset_ns_;
  StraceObservations obs_;
  std::map<pid_t, Pending> pending_;
};

// C string literal as strace prints it ("a\"b\n", octal and \x escapes); `end` receives the
// offset after the closing quote (and after a "..." that marks a cut string).
std::optional<std::string> strace_unquote(std::string_view text, std::size_t& end, bool& truncated);

}  // namespace jbench::collectors::syscall_detail
