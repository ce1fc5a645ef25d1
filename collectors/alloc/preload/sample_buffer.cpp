#include "sample_buffer.h"

#include <sched.h>
#include <sys/mman.h>

#include "process_identity.h"

namespace jb_alloc {

const char* call_name(Call call) noexcept {
  switch (call) {
    case Call::malloc:
      return "malloc";
    case Call::calloc:
      return "calloc";
    case Call::realloc:
      return "realloc";
    case Call::reallocarray:
      return "reallocarray";
    case Call::posix_memalign:
      return "posix_memalign";
    case Call::aligned_alloc:
      return "aligned_alloc";
    case Call::memalign:
      return "memalign";
    case Call::valloc:
      return "valloc";
    case Call::pvalloc:
      return "pvalloc";
  }
  return "unknown";
}

bool SampleBuffer::map(std::uint32_t capacity) noexcept {
  const std::size_t bytes = sizeof(SampleSlot) * capacity;
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return false;
  // Anonymous pages are zero, and zero is a valid empty SampleSlot (epoch 0 is never current).
  slots_ = static_cast<SampleSlot*>(p);
  capacity_ = capacity;
  return true;
}

SampleBuffer::Outcome SampleBuffer::record(Sample s, std::uint32_t& next_seq) noexcept {
  const std::uint64_t index = reserved_.fetch_add(1, std::memory_order_relaxed);
  if (index >= kClosedBias) return Outcome::closed;
  if (index >= capacity_) return Outcome::dropped;
  s.seq = next_seq++;
  SampleSlot& slot = slots_[index];
  slot.sample = s;
  slot.epoch.store(epoch_.load(std::memory_order_relaxed), std::memory_order_release);
  return Outcome::recorded;
}

ClosedBuffer SampleBuffer::close() noexcept {
  const std::uint64_t reserved = reserved_.fetch_add(kClosedBias, std::memory_order_acq_rel);
  ClosedBuffer c;
  if (reserved >= kClosedBias) return c;  // closed twice: nothing more to write
  c.filled = reserved < capacity_ ? reserved : capacity_;
  c.dropped = reserved - c.filled;
  return c;
}

const Sample* SampleBuffer::published(std::uint64_t i, std::uint64_t deadline_ns) const noexcept {
  const SampleSlot& slot = slots_[i];
  const std::uint32_t epoch = epoch_.load(std::memory_order_relaxed);
  // A writer between reserving and publishing needs a few instructions; wait in case it was
  // preempted, yielding the processor to it.
  for (int spins = 0;; ++spins) {
    if (slot.epoch.load(std::memory_order_acquire) == epoch) return &slot.sample;
    if ((spins & 63) == 63) {
      if (monotonic_ns() > deadline_ns) return nullptr;
      ::sched_yield();
    }
  }
}

void SampleBuffer::reset_after_fork() noexcept {
  epoch_.fetch_add(1, std::memory_order_relaxed);
  reserved_.store(0, std::memory_order_relaxed);
}

}  // namespace jb_alloc
