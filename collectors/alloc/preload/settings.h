// The sampler's controls, read once from the environment at load (docs/collectors/alloc.md):
//
//   JBENCH_ALLOC_OUT         the raw file to write (relative: to the working directory at start);
//                            unset or empty: the library stays inert
//   JBENCH_ALLOC_MEAN_BYTES  mean bytes between samples (default 524288, 1 .. 2^40)
//   JBENCH_ALLOC_SEED        seed of the sampling sequence (decimal uint64; default: random)
//   JBENCH_ALLOC_BUFFER      samples kept per process before dropping (default 65536, 1 .. 2^24)
//   JBENCH_RUN_ID            the header's run_id
//   JBENCH_BOOT_ID           the header's boot_id (default: the kernel's)
//
// Parsed without allocating (the hooks may already be live), into fixed buffers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace jb_alloc {

inline constexpr std::uint64_t kDefaultMeanBytes = 512 * 1024;
inline constexpr std::uint64_t kMaxMeanBytes = std::uint64_t{1} << 40;
inline constexpr std::uint32_t kDefaultBufferSamples = 65536;
inline constexpr std::uint32_t kMaxBufferSamples = std::uint32_t{1} << 24;

struct Settings {
  bool requested = false;  // JBENCH_ALLOC_OUT is set and not empty
  char out_path[4096] = {};
  std::uint64_t mean_bytes = kDefaultMeanBytes;
  std::uint64_t seed = 0;
  bool seed_given = false;
  std::uint32_t buffer_samples = kDefaultBufferSamples;
  char run_id[256] = {};
  char boot_id[64] = {};
  // Empty when every setting is valid; otherwise one line naming the variable, the value's
  // problem and the accepted range. The file is still written (header and a trailer that says
  // the collector ended with code 2), so the harness sees why nothing was sampled.
  char error[384] = {};
};

void read_settings(Settings& out) noexcept;

}  // namespace jb_alloc
