// The bounded buffer of samples of one process. Any thread records into it without a lock: a
// slot is reserved with one atomic increment, filled, then published. It never wraps: once full
// every later sample is dropped and counted, and the buffer stays full until the process writes
// its file at exit. Memory is mapped once at start (never malloc: the hooks would recurse) and
// pages are touched only as slots are used.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace jb_alloc {

enum class Call : std::uint8_t {
  malloc,
  calloc,
  realloc,
  reallocarray,
  posix_memalign,
  aligned_alloc,
  memalign,
  valloc,
  pvalloc,
};
const char* call_name(Call call) noexcept;

struct Sample {
  std::uint64_t t_ns = 0;
  std::uint64_t bytes = 0;
  std::uint64_t site = 0;  // the return address of the allocation call
  std::int32_t tid = 0;
  std::uint32_t seq = 0;  // per thread, from 0: the record's place in its stream
  Call call = Call::malloc;
};

struct SampleSlot {
  Sample sample;
  // The buffer epoch the slot was published in; a slot written before a fork, or not yet
  // finished, never matches the current epoch.
  std::atomic<std::uint32_t> epoch{0};
};

// What close() found: how many slots hold samples (some may be unpublished, see lost) and how
// many samples were dropped because the buffer was full.
struct ClosedBuffer {
  std::uint64_t filled = 0;
  std::uint64_t dropped = 0;
};

class SampleBuffer {
 public:
  // Maps room for `capacity` samples; false if the kernel refused.
  bool map(std::uint32_t capacity) noexcept;

  enum class Outcome : std::uint8_t { recorded, dropped, closed };
  // Records `s` if a slot is free. `s.seq` is filled only when the outcome is `recorded`, from
  // `next_seq` (which is then incremented): a dropped sample takes no place in its stream.
  Outcome record(Sample s, std::uint32_t& next_seq) noexcept;

  // Stops recording: later record() calls return `closed` and are not counted anywhere.
  ClosedBuffer close() noexcept;

  // The published sample in slot i (i < filled), or nullptr if its writer has not finished
  // publishing by `deadline_ns` (CLOCK_MONOTONIC): a thread racing with exit, counted as lost by
  // the caller. One deadline for all slots bounds the whole wait.
  const Sample* published(std::uint64_t i, std::uint64_t deadline_ns) const noexcept;

  // In a fork child: the parent's samples are the parent's to write; start empty and open.
  void reset_after_fork() noexcept;

 private:
  // Reservations past this bias were made after close(): the bias is added by close(), so the
  // reservation count before it is known exactly and nothing after it is counted.
  static constexpr std::uint64_t kClosedBias = std::uint64_t{1} << 62;

  SampleSlot* slots_ = nullptr;
  std::uint32_t capacity_ = 0;
  std::atomic<std::uint32_t> epoch_{1};
  std::atomic<std::uint64_t> reserved_{0};
};

}  // namespace jb_alloc
