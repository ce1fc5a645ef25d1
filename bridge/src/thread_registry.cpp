// Thread states: made at a thread's first call, recycled after it exits (ring included, so a pool
// of short-lived threads does not fault in a new ring each time), and the rings themselves.
#include <pthread.h>
#include <sys/mman.h>

#include <algorithm>
#include <new>

#include "process_state.h"
#include "thread_state.h"
#include "writer.h"

namespace jb_detail {

__thread ThreadState* t_state __attribute__((tls_model("initial-exec"))) = nullptr;

namespace {

constexpr std::uint64_t kPidBits = 22;  // Linux pid_max is at most 2^22
constexpr std::uint64_t kCounterBits = 64 - kPidBits;
constexpr std::uint64_t kCounterMask = (1ull << kCounterBits) - 1;
constexpr std::uint64_t kIdBlock = 1024;  // span ids a thread takes from the counter at once
constexpr std::size_t kPageBytes = 4096;  // the smallest page: touching more often is harmless

// Every state the process made, newest first. Only ever pushed to (lock-free), so the writer can
// walk it while threads attach; states are reused, never freed.
std::atomic<ThreadState*> g_threads{nullptr};

pthread_key_t g_exit_key;
pthread_once_t g_exit_key_once = PTHREAD_ONCE_INIT;

// Thread exit: what is left in the ring is written now, by the exiting thread (no longer on any
// hot path), so the state and its faulted-in ring are free at once for the next new thread.
// Without a file (no-consumer, or after shutdown) there is nothing to write.
void on_thread_exit(void* state) {
  auto* s = static_cast<ThreadState*>(state);
  t_state = nullptr;
  if (!g_process.recording || g_process.shut_down.load()) {
    s->status.store(kFree, std::memory_order_release);
    return;
  }
  s->status.store(kExited, std::memory_order_release);
  drain_exited(*s);
}

void make_exit_key() { pthread_key_create(&g_exit_key, on_thread_exit); }

std::uint64_t pid_bits() noexcept {
  return (static_cast<std::uint64_t>(g_process.pid) & ((1ull << kPidBits) - 1)) << kCounterBits;
}

ThreadState* claim_free_state() noexcept {
  for (ThreadState* s = g_threads.load(std::memory_order_acquire); s; s = s->next) {
    int expected = kFree;
    if (s->status.load(std::memory_order_relaxed) == kFree &&
        s->status.compare_exchange_strong(expected, kClaiming, std::memory_order_acquire)) {
      return s;
    }
  }
  return nullptr;
}

// A ring with every page already written once. First touches of fresh pages are expensive on
// some hosts (tens of µs each on a VM whose host backs guest memory lazily, even after
// MAP_POPULATE), and they must not land on the hot path, one per 64 events.
Slot* new_ring(std::uint64_t slots) noexcept {
  const std::size_t bytes = slots * sizeof(Slot);
  void* ring = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (ring == MAP_FAILED) return nullptr;
  auto* bytes_of = static_cast<volatile char*>(ring);
  for (std::size_t i = 0; i < bytes; i += kPageBytes) bytes_of[i] = 0;
  return static_cast<Slot*>(ring);
}

// A ring made off the hot path (at init, then by the writer) for the next thread's first event.
std::atomic<Slot*> g_spare_ring{nullptr};

bool attach_ring(ThreadState& s) noexcept {
  Slot* ring = g_spare_ring.exchange(nullptr);
  if (ring) {
    wake_writer();  // to make the next spare
  } else {
    ring = new_ring(g_process.ring_slots);
  }
  if (!ring) {
    s.ring_failed = true;
    return false;
  }
  s.slots = ring;
  s.capacity = g_process.ring_slots;
  s.next_check = s.head.load(std::memory_order_relaxed);
  ensure_writer();
  return true;
}

void count_drop(ThreadState& s) noexcept {
  s.dropped.store(s.dropped.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

}  // namespace

ThreadState* attach_thread() noexcept {
  pthread_once(&g_exit_key_once, make_exit_key);
  ThreadState* s = claim_free_state();
  const bool fresh = s == nullptr;
  if (fresh) {
    s = new (std::nothrow) ThreadState;
    if (!s) return nullptr;
  }
  s->tid = current_tid();
  s->spans.adopt(0);
  s->ring_failed = false;  // a new owner may try again
  // The writer reads tid only after it sees the state owned.
  s->status.store(kOwned, std::memory_order_release);
  if (fresh) {
    s->next = g_threads.load(std::memory_order_relaxed);
    while (!g_threads.compare_exchange_weak(s->next, s, std::memory_order_release,
                                            std::memory_order_relaxed)) {
    }
  }
  t_state = s;
  pthread_setspecific(g_exit_key, s);
  return s;
}

void refill_span_ids(ThreadState& s) noexcept {
  const std::uint64_t start =
      g_process.span_counter.fetch_add(kIdBlock, std::memory_order_relaxed) + 1;
  s.next_id = pid_bits() | (start & kCounterMask);
  s.id_end = s.next_id + kIdBlock;
}

std::uint64_t shared_span_id() noexcept {
  const std::uint64_t n = g_process.span_counter.fetch_add(1, std::memory_order_relaxed) + 1;
  return pid_bits() | (n & kCounterMask);
}

bool make_room(ThreadState& s, std::uint64_t head, std::uint64_t need) noexcept {
  if (s.capacity == 0 && (s.ring_failed || !attach_ring(s))) {
    count_drop(s);
    return false;
  }
  const std::uint64_t tail = s.tail.load(std::memory_order_acquire);
  if (head + need - tail > s.capacity) {
    count_drop(s);
    s.next_check = head;  // full: look again at the next event
    wake_writer();
    return false;
  }
  if (head - tail >= s.capacity / 2) wake_writer();
  // Look again after a quarter of the ring, so a half-full ring is noticed in time.
  s.next_check = std::min(tail + s.capacity, head + std::max<std::uint64_t>(s.capacity / 4, need));
  return true;
}

void prepare_spare_ring() noexcept {
  if (g_spare_ring.load(std::memory_order_relaxed)) return;
  Slot* ring = new_ring(g_process.ring_slots);
  if (!ring) return;
  Slot* expected = nullptr;
  if (!g_spare_ring.compare_exchange_strong(expected, ring)) {
    ::munmap(ring, g_process.ring_slots * sizeof(Slot));
  }
}

ThreadState* first_thread_state() noexcept { return g_threads.load(std::memory_order_acquire); }

void reset_threads_after_fork(ThreadState* self) noexcept {
  // The parent's spare is shared copy-on-write: writing it would copy every page.
  if (Slot* spare = g_spare_ring.exchange(nullptr)) {
    ::munmap(spare, g_process.ring_slots * sizeof(Slot));
  }
  g_threads.store(self, std::memory_order_relaxed);
  if (!self) return;
  self->next = nullptr;
  // The parent's ring is a copy-on-write copy here; the child gets its own at its next event.
  if (self->slots) ::munmap(self->slots, self->capacity * sizeof(Slot));
  self->slots = nullptr;
  self->capacity = 0;
  self->ring_failed = false;
  self->next_check = 0;
  self->head.store(0, std::memory_order_relaxed);
  self->tail.store(0, std::memory_order_relaxed);
  self->dropped.store(0, std::memory_order_relaxed);
  self->cursor = StreamCursor{};
  self->next_id = self->id_end = 0;  // the parent's ids carry the parent's pid
  self->tid = current_tid();
}

}  // namespace jb_detail
