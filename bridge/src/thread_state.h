// One thread's share of the bridge: its current span, its block of span ids, and its ring of
// event slots — a single-producer, single-consumer queue between the thread (the only producer)
// and the writer (the only consumer, writer.h). Private.
//
// The hot path touches only this thread's state: no lock, no shared counter, no allocation after
// the thread's first event. When the ring is full the event is dropped and counted; the thread
// never waits for the writer.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>

#include "event.h"
#include "process_info.h"
#include "span_stack.h"

#pragma GCC visibility push(hidden)

namespace jb_detail {

// Where a state is in its life. Only `owned` states have a thread; the writer drains `owned` and
// `exited` ones and turns an `exited` one, once empty, into `free` for the next new thread.
enum ThreadStatus : int { kOwned, kExited, kClaiming, kFree };

// The writer's position in one stream (writer-only; reset when the state changes hands).
struct StreamCursor {
  bool started = false;             // the stream's first record was written (seq decided)
  std::uint64_t seq = 0;            // the next record's seq in the file
  std::uint64_t drops_written = 0;  // drops already reported by overflow records
  std::uint32_t last_mark = 0;      // drop_mark of the last event written
  std::uint64_t last_t_ns = 0;      // t_ns of the last record written
};

struct alignas(64) ThreadState {
  // --- written by the owning thread ---
  Slot* slots = nullptr;
  std::uint64_t capacity = 0;          // slots, a power of two; 0: no ring yet (or none possible)
  std::uint64_t next_check = 0;        // the head at which the producer next reads `tail`
  std::atomic<std::uint64_t> head{0};  // slots [tail, head) are published to the writer
  std::atomic<std::uint64_t> dropped{0};  // events this stream lost (only the owner writes)
  std::uint64_t next_id = 0;              // this thread's block of span ids: [next_id, id_end)
  std::uint64_t id_end = 0;
  bool ring_failed = false;  // the ring could not be allocated: every event drops

  // --- written by the writer ---
  alignas(64) std::atomic<std::uint64_t> tail{0};
  StreamCursor cursor;

  // --- lifecycle: set when the state changes hands, read by the writer ---
  alignas(64) std::atomic<int> status{kOwned};
  std::int64_t tid = 0;
  ThreadState* next = nullptr;  // the process's list of states (never shrinks)

  alignas(64) SpanStack spans;
};

// The calling thread's state (nullptr until its first call in a mode that is not off).
// initial-exec: one instruction away, also in the shared library; the variable is one pointer,
// small enough for the static TLS space a dlopen()ed library may use.
extern __thread ThreadState* t_state __attribute__((tls_model("initial-exec")));

// Makes (or recycles) the calling thread's state; nullptr if out of memory. Cold.
ThreadState* attach_thread() noexcept;

inline ThreadState* this_thread() noexcept {
  ThreadState* s = t_state;
  return __builtin_expect(s != nullptr, 1) ? s : attach_thread();
}

// Refills the thread's block of span ids [next_id, id_end) from the process's counter; an id is
// the incarnation's pid in the top bits and a counter below, unique within the run. Cold.
void refill_span_ids(ThreadState& s) noexcept;
// A span id without a thread state (out of memory): straight from the process's counter.
std::uint64_t shared_span_id() noexcept;

// Called when the producer reaches `next_check`: allocates the ring on the first event, reads the
// writer's tail, wakes the writer when the ring is half full, and drops (counting) when `need`
// slots do not fit. True if the event may be written at `head`. Cold.
bool make_room(ThreadState& s, std::uint64_t head, std::uint64_t need) noexcept;

// Appends one event to the calling thread's ring, or drops and counts it.
inline void record(ThreadState& s, EventType type, std::uint64_t a, std::uint64_t b,
                   const char* name) noexcept {
  const std::size_t n = kept_name_length(name);
  const std::uint64_t need = slots_for(n);
  const std::uint64_t h = s.head.load(std::memory_order_relaxed);
  if (__builtin_expect(h + need > s.next_check, 0) && !make_room(s, h, need)) return;
  const std::uint64_t mask = s.capacity - 1;
  Slot& e = s.slots[h & mask];
  e.t_ns = monotonic_ns();
  e.a = a;
  e.b = b;
  e.type = type;
  e.name_len = static_cast<std::uint8_t>(n);
  e.drop_mark = static_cast<std::uint32_t>(s.dropped.load(std::memory_order_relaxed));
  if (n > 0) {
    std::memcpy(e.name, name, n < kInlineName ? n : kInlineName);
    if (n > kInlineName) std::memcpy(&s.slots[(h + 1) & mask], name + kInlineName, n - kInlineName);
  }
  s.head.store(h + need, std::memory_order_release);
}

// Makes a ring, its pages faulted in, for the next thread that records its first event (unless
// one is ready). Called off the hot path: by jb_init_from_env and by the writer.
void prepare_spare_ring() noexcept;

// For the writer: the first state of the process's list (states are only ever added).
ThreadState* first_thread_state() noexcept;

// In a forked child, from the fork handler: `self` (the forking thread's state, may be null)
// becomes the only state; its stream starts again (new tid, seq 0, no ring until its next event)
// but its current span survives, so the child's spans nest under the parent's.
void reset_threads_after_fork(ThreadState* self) noexcept;

}  // namespace jb_detail

#pragma GCC visibility pop
