// A processor's counter through perf_event_open (docs/trace-modes.md, "counted", the perf
// backend): one counter per thread a process has when it is opened, each inherited by the
// threads and processes that thread starts later, counting user-space work only. Reading gives
// the sum over the threads, with how long the counters were enabled and how long they ran: a
// counter the kernel multiplexed with others (running < enabled) did not count all the time.
//
//   auto c = PerfCounter::open(pid, kInstructionsEvent);   // error: perf_event_open's, named
//   auto r = c->read();                                    // value, enabled_ns, running_ns
//
// A thread started after open() is counted through its parent's counter, which the kernel adds
// its count to when it exits: until then, its work is not in a reading.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "jbench/common/result.h"

namespace jbench::collectors {

struct PerfEvent {
  std::uint32_t type = 0;    // perf_event_attr.type: PERF_TYPE_HARDWARE, PERF_TYPE_SOFTWARE, ...
  std::uint64_t config = 0;  // perf_event_attr.config
  const char* name = "";     // what the count is of, as records name it
};

// The processor's count of instructions retired.
PerfEvent instructions_event();

struct PerfReading {
  std::uint64_t value = 0;
  std::uint64_t enabled_ns = 0;
  std::uint64_t running_ns = 0;
};

class PerfCounter {
 public:
  // A counter on every thread of `pid` (its /proc/<pid>/task), enabled at once.
  static Result<PerfCounter> open(pid_t pid, const PerfEvent& event);
  // Whether this process could open `event` on itself: the host has the counter, and jbench may
  // use it. The error says which.
  static jbench::Status probe(const PerfEvent& event);

  PerfCounter(PerfCounter&& other) noexcept;
  PerfCounter& operator=(PerfCounter&& other) noexcept;
  PerfCounter(const PerfCounter&) = delete;
  PerfCounter& operator=(const PerfCounter&) = delete;
  ~PerfCounter();

  // The sum over the threads' counters, or why one could not be read.
  Result<PerfReading> read() const;

 private:
  PerfCounter() = default;
  void close_all();
  std::vector<int> fds_;
};

}  // namespace jbench::collectors
