// The records of one run's raw files that a timeline shows, read line by line (docs/events.md,
// docs/collectors/syscall.md): spans, GC pauses and phases from the bridge's files, one record
// per call and one per on-CPU sample from the syscall collector's. Every other line (header,
// trailer, canaries, counters, a light run's `syscall_totals`, types this reader does not know)
// is skipped.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "bundle_input.h"

namespace jbench::exports {

enum class RecordType : std::uint8_t {
  span_begin,
  span_end,
  gc_begin,
  gc_end,
  phase,
  syscall,
  cpu_sample,
  counter,  // a project's jb_counter value
};

// Views into the line being read: valid only during the callback.
struct RawEvent {
  RecordType type = RecordType::phase;
  std::int64_t pid = 0;
  std::uint64_t start_time_ticks = 0;
  std::int64_t tid = 0;
  std::uint64_t t_ns = 0;
  std::string_view span_id;     // span_begin, span_end
  std::string_view parent_id;   // span_begin; empty for a root
  std::string_view name;        // span_begin, phase; the call's name for a syscall
  std::int64_t generation = 0;  // gc_begin, gc_end
  std::int64_t value = 0;       // counter (its name in `name`)
  // syscall
  std::uint64_t duration_ns = 0;
  std::optional<std::int64_t> fd;
  std::optional<std::int64_t> result;
  std::optional<std::string_view> path;
  std::optional<std::string_view> request;
  std::optional<std::string_view> error_name;  // `errno`
  std::optional<std::string_view> phase;       // syscall, cpu_sample: the phase it began in
  // syscall (a call or an off-CPU interval that slept): who woke the thread, when it was woken
  std::optional<std::string_view> woken_by;  // "task", "interrupt" or "kernel_thread"
  std::optional<std::int64_t> waker_pid;
  std::optional<std::int64_t> waker_tid;
  // When the waker woke it; none in records of earlier versions, which did not keep it.
  std::optional<std::uint64_t> woken_ns;
  // cpu_sample: the user stack folded root first ("main;run;leaf"), or why there is none
  std::optional<std::string_view> stack;
  std::optional<std::string_view> stack_error;
  bool in_kernel = false;      // the sample interrupted the kernel, entered from the stack's leaf
  bool bridge_writer = false;  // `"thread_role":"bridge_writer"`: the observer's own thread
};

struct RunRecordsRead {
  std::string error;                 // "<file>:<line>: ..." when a line is malformed or unreadable
  bool syscall_light = false;        // the syscall file holds totals only (detail "light")
  std::uint64_t totals_records = 0;  // `syscall_totals` lines skipped
  std::uint64_t skipped = 0;         // other record lines no timeline shows
};

// Every record of the run's bridge files (worker order), then of its syscall file, in file
// order. A line that is not JSON, or a shown type missing a field it needs, stops the reading
// with the error. `stop`, when given and set by the callback, stops the reading at the next line.
RunRecordsRead read_run_records(const RunInput& run,
                                const std::function<void(const RawEvent&)>& on_event,
                                const bool* stop = nullptr);

}  // namespace jbench::exports
