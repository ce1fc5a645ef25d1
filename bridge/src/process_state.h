// The bridge's per-process state: the mode flag every entry point tests first, and what the
// process knows about itself and its raw file. Set by jb_init_from_env (recorder.cpp), changed
// again only in a forked child and at shutdown. Private.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#pragma GCC visibility push(hidden)

namespace jb_detail {

// JB_MODE_*: the one flag every entry point tests first.
extern std::atomic<int> g_mode;

inline int current_mode() noexcept { return g_mode.load(std::memory_order_relaxed); }
inline bool bridge_off(int mode) noexcept { return __builtin_expect(mode == 0, 1); }

// Totals of every process writing to the file (the creator and its forked children), in a
// MAP_SHARED page so the creator's trailer counts its children's records and drops too.
struct SharedTotals {
  std::atomic<std::uint64_t> records;
  std::atomic<std::uint64_t> dropped;
};

inline constexpr std::uint64_t kDefaultRingSlots = 16384;

struct ProcessState {
  bool initialised = false;  // jb_init_from_env ran (whatever it found)
  bool recording = false;    // light or full: this process has a raw file and a writer
  bool owner = false;        // this process created the file and writes the trailer
  std::atomic<bool> shut_down{false};
  int fd = -1;
  std::int64_t pid = 0;
  std::uint64_t start_time_ticks = 0;
  std::uint64_t ring_slots = kDefaultRingSlots;  // per thread, a power of two
  std::string run_id;
  std::string boot_id;
  std::uint8_t runtime_id[16] = {};
  SharedTotals* totals = nullptr;
  std::atomic<std::uint64_t> span_counter{0};      // blocks of span ids handed to threads
  std::atomic<std::uint64_t> canaries{0};          // this process's canary count
  std::atomic<std::uint64_t> unbuffered_drops{0};  // events of threads with no state (no memory)
};

extern ProcessState g_process;

}  // namespace jb_detail

#pragma GCC visibility pop
