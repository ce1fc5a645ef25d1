#include "sampler.h"

#include <atomic>
#include <cerrno>
#include <cmath>

#include "jbench/alloc/sample_weight.h"
#include "process_identity.h"
#include "settings.h"

namespace jb_alloc {

__thread std::int64_t t_bytes_to_next_sample = 0;

namespace {

// Far enough that a thread never reaches it: how a thread is told to stay on the hot path.
constexpr std::int64_t kNever = std::int64_t{1} << 62;

enum class State : std::uint8_t { pending, active, off };
std::atomic<State> g_state{State::pending};

// Written before g_state becomes active (release) and read after (acquire); only a fork child
// rewrites the seed, on its only thread.
std::uint64_t g_mean_bytes = kDefaultMeanBytes;
std::uint64_t g_seed = 0;
SampleBuffer* g_buffer = nullptr;

// Threads are numbered in the order they first reach a sample point, and each one's random
// sequence derives from (seed, number): with a fixed seed a single-threaded program (or one
// whose threads start allocating in a fixed order) samples the same allocations every run.
std::atomic<std::uint64_t> g_thread_ordinal{0};
std::atomic<std::uint64_t> g_drop_weight_bytes{0};
std::atomic<std::uint64_t> g_first_drop_ns{0};

struct ThreadState {
  std::uint64_t rng = 0;
  std::int32_t tid = 0;
  std::uint32_t next_seq = 0;
  bool ready = false;  // rng and tid are set
  bool busy = false;   // inside on_sample_point: the recursion guard
};
__thread ThreadState t_thread;

std::uint64_t next_random(std::uint64_t& state) noexcept {
  state += 0x9e3779b97f4a7c15u;
  return mix_seed(state, 0);
}

// Bytes to the next sample point: ceil of an exponential variable of mean g_mean_bytes. For a
// whole number of bytes s, ceil(X) <= s exactly when X <= s, so the sampling probability of an
// allocation is the continuous 1 - exp(-s/mean) the estimator assumes.
std::int64_t draw_distance(ThreadState& t) noexcept {
  // u in (0, 1]: 53 random bits, never 0, so the logarithm is finite.
  const double u = static_cast<double>((next_random(t.rng) >> 11) + 1) * 0x1.0p-53;
  const double d = std::ceil(-static_cast<double>(g_mean_bytes) * std::log(u));
  return d >= 4e18 ? kNever : static_cast<std::int64_t>(d);
}

void start_thread(ThreadState& t) noexcept {
  t.rng = mix_seed(g_seed, g_thread_ordinal.fetch_add(1, std::memory_order_relaxed));
  t.tid = current_tid();
  t.ready = true;
}

void note_drop(const Sample& s) noexcept {
  const double w = jbench::alloc::sample_weight(s.bytes, g_mean_bytes);
  g_drop_weight_bytes.fetch_add(static_cast<std::uint64_t>(std::llround(w)),
                                std::memory_order_relaxed);
  std::uint64_t first = g_first_drop_ns.load(std::memory_order_relaxed);
  while ((first == 0 || s.t_ns < first) &&
         !g_first_drop_ns.compare_exchange_weak(first, s.t_ns, std::memory_order_relaxed)) {
  }
}

void take_sample(ThreadState& t, std::size_t bytes, Call call, const void* site) noexcept {
  Sample s;
  s.t_ns = monotonic_ns();
  s.bytes = bytes;
  s.site = reinterpret_cast<std::uintptr_t>(site);
  s.tid = t.tid;
  s.call = call;
  if (g_buffer->record(s, t.next_seq) == SampleBuffer::Outcome::dropped) note_drop(s);
}

}  // namespace

std::uint64_t mix_seed(std::uint64_t a, std::uint64_t b) noexcept {
  std::uint64_t z = a ^ (b * 0xbf58476d1ce4e5b9u + 0x94d049bb133111ebu);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

void on_sample_point(std::size_t bytes, const void* block, Call call, const void* site) noexcept {
  ThreadState& t = t_thread;
  if (t.busy) {
    t_bytes_to_next_sample = kNever;  // the outer call draws the real distance when it ends
    return;
  }
  t.busy = true;
  const int saved_errno = errno;  // the caller sees the real allocator's errno, not ours
  switch (g_state.load(std::memory_order_acquire)) {
    case State::pending:
      t_bytes_to_next_sample = 0;  // not configured yet: look again at the next allocation
      break;
    case State::off:
      t_bytes_to_next_sample = kNever;
      break;
    case State::active:
      if (!t.ready) {
        // The thread's first point: place it now, then see whether this allocation holds it.
        start_thread(t);
        t_bytes_to_next_sample = draw_distance(t) - static_cast<std::int64_t>(bytes);
        if (t_bytes_to_next_sample > 0) break;
      }
      if (block && bytes > 0) take_sample(t, bytes, call, site);
      t_bytes_to_next_sample = draw_distance(t);
      break;
  }
  errno = saved_errno;
  t.busy = false;
}

void sampler_start(std::uint64_t mean_bytes, std::uint64_t seed, SampleBuffer* buffer) noexcept {
  g_mean_bytes = mean_bytes;
  g_seed = seed;
  g_buffer = buffer;
  g_state.store(State::active, std::memory_order_release);
}

void sampler_stop() noexcept { g_state.store(State::off, std::memory_order_release); }

void sampler_after_fork_child(std::uint64_t seed) noexcept {
  g_seed = seed;
  g_thread_ordinal.store(0, std::memory_order_relaxed);
  g_drop_weight_bytes.store(0, std::memory_order_relaxed);
  g_first_drop_ns.store(0, std::memory_order_relaxed);
  ThreadState& t = t_thread;
  t.next_seq = 0;
  if (t.ready) start_thread(t);
  g_state.store(State::active, std::memory_order_release);
}

Drops sampler_drops() noexcept {
  return {g_drop_weight_bytes.load(std::memory_order_relaxed),
          g_first_drop_ns.load(std::memory_order_relaxed)};
}

StreamPosition take_stream_seqs(std::uint32_t count) noexcept {
  ThreadState& t = t_thread;
  StreamPosition pos{t.ready ? t.tid : current_tid(), t.next_seq};
  t.next_seq += count;
  return pos;
}

}  // namespace jb_alloc
