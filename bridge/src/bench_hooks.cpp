#include "bench_hooks.h"

#include "process_state.h"
#include "thread_state.h"
#include "writer.h"

namespace jb_detail::bench {

void set_mode(int mode) noexcept { g_mode.store(mode, std::memory_order_relaxed); }

void hold_writer(bool hold) noexcept { jb_detail::hold_writer(hold); }

void drain_now() noexcept { drain_all(false); }

std::uint64_t dropped() noexcept {
  // Reported by overflow records already, plus what each stream has not reported yet.
  std::uint64_t total = g_process.totals ? g_process.totals->dropped.load() : 0;
  total += g_process.unbuffered_drops.load(std::memory_order_relaxed);
  for (ThreadState* s = first_thread_state(); s; s = s->next) {
    total += s->dropped.load(std::memory_order_relaxed) - s->cursor.drops_written;
  }
  return total;
}

}  // namespace jb_detail::bench
