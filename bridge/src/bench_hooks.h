// Hooks for the bridge's own benchmark (bench/bridge_bench.cpp), so one run can put every mode
// side by side and measure the producer without the writer competing for the CPU. Not part of
// the ABI: hidden in the shared library, reachable only by linking the static one. Private.
#pragma once

#include <cstdint>

#pragma GCC visibility push(hidden)

namespace jb_detail::bench {

// Switches the mode of a bridge that jb_init_from_env started in light or full (JB_MODE_*), so
// off and no-consumer run the very code paths they run in a process started in those modes.
void set_mode(int mode) noexcept;
// While held, the background writer skips its passes: rings only fill (and drop when full).
void hold_writer(bool hold) noexcept;
// One writer pass now, on the calling thread: every ring is empty afterwards.
void drain_now() noexcept;
// Events this process's threads have dropped so far, reported in the file or not. Call it while
// the writer is held (it reads the writer's cursors).
std::uint64_t dropped() noexcept;

}  // namespace jb_detail::bench

#pragma GCC visibility pop
