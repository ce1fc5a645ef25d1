// Byte-based sampling of allocations (docs/collectors/alloc.md).
//
// Each thread keeps one counter: the bytes it may still allocate before its next sample point.
// The hook subtracts every allocation's size from it; only when it reaches zero does the thread
// take the slow path, which records the allocation and draws the distance to the next point
// from an exponential distribution of the configured mean. Distances are memoryless, so the
// points form a Poisson process over the allocated bytes no matter how they are split into
// calls, and an allocation of s bytes is sampled with probability 1 - exp(-s/mean).
//
// The hot path takes no lock and makes no call; the slow path makes no allocation. Allocations
// made while this thread is already inside the slow path (none are expected) are not sampled.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sample_buffer.h"

namespace jb_alloc {

// Initial-exec TLS (see CMakeLists.txt): the hot path is one subtraction and one branch.
extern __thread std::int64_t t_bytes_to_next_sample __attribute__((visibility("hidden")));

// The slow path: the calling thread's counter reached zero within this allocation, which
// the real allocator returned as `block`.
void on_sample_point(std::size_t bytes, const void* block, Call call, const void* site) noexcept;

// Called by every allocating hook before it forwards: takes `bytes` off the calling thread's
// counter and says whether the call stays on the fast path (the point is not in this call).
// Accounting before the call lets the fast path end in a tail call to the real allocator; the
// slow path makes the real call itself and then calls on_sample_point with its result (nullptr
// if it failed: the point falling in it is skipped, which the memoryless draw makes harmless).
inline bool stays_unsampled(std::size_t bytes) noexcept {
  t_bytes_to_next_sample -= static_cast<std::int64_t>(bytes);
  return __builtin_expect(t_bytes_to_next_sample > 0, 1);
}

// Starts sampling into `buffer` (which must outlive the process) with the given mean and seed.
// Before this, sample points are ignored.
void sampler_start(std::uint64_t mean_bytes, std::uint64_t seed, SampleBuffer* buffer) noexcept;

// Stops sampling for good (the file is being written, or sampling is not wanted): each thread
// leaves the slow path for good at its next sample point.
void sampler_stop() noexcept;

// In a fork child, on its only thread: a new incarnation with new streams and its own seed. The
// thread keeps its distance to the next point (still exponential, by memorylessness).
void sampler_after_fork_child(std::uint64_t seed) noexcept;

// Samples dropped for a full buffer: the sum of their weights (bytes, rounded per sample) and
// the time of the first drop (0 if none).
struct Drops {
  std::uint64_t weight_bytes = 0;
  std::uint64_t first_drop_ns = 0;
};
Drops sampler_drops() noexcept;

// The calling thread's stream, for records the writer adds on it: its tid and the seq the next
// record takes. Reserves `count` seqs.
struct StreamPosition {
  std::int32_t tid = 0;
  std::uint32_t seq = 0;
};
StreamPosition take_stream_seqs(std::uint32_t count) noexcept;

// A 64-bit mix (splitmix64's finaliser): derives independent-looking seeds from related ones.
std::uint64_t mix_seed(std::uint64_t a, std::uint64_t b) noexcept;

}  // namespace jb_alloc
