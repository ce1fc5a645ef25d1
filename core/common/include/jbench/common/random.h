// Stable hashing and seeded randomness whose output is fixed by this file alone.
//
// The standard library's distributions and std::shuffle are implementation-defined, so a plan
// shuffled with them could differ between two machines given the same seed. Everything here is
// specified bit for bit: FNV-1a 64 for strings, SplitMix64 for mixing and as the generator, and
// Lemire's multiply-shift with rejection for unbiased bounded integers.
//
//   SplitMix64 rng(42);
//   std::uint64_t die = rng.below(6);  // uniform in [0, 6)
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <utility>

namespace jbench {

// FNV-1a, 64-bit. `basis` lets a caller chain several pieces into one hash.
constexpr std::uint64_t kFnvOffsetBasis = 0xcbf29ce484222325ULL;
std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t basis = kFnvOffsetBasis);

// The SplitMix64 finaliser: a bijective mix of 64 bits.
std::uint64_t mix64(std::uint64_t x);

// Combine two 64-bit values into one, order-sensitive.
std::uint64_t combine64(std::uint64_t a, std::uint64_t b);

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  // Uniform in [0, bound); bound must be > 0.
  std::uint64_t below(std::uint64_t bound);

 private:
  std::uint64_t state_;
};

// Fisher-Yates shuffle driven by `rng`, identical on every platform.
template <typename T>
void stable_shuffle(std::span<T> items, SplitMix64& rng) {
  for (std::size_t i = items.size(); i > 1; --i) {
    const auto j = static_cast<std::size_t>(rng.below(i));
    using std::swap;
    swap(items[i - 1], items[j]);
  }
}

}  // namespace jbench
