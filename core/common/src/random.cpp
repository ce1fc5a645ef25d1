#include "jbench/common/random.h"

namespace jbench {
namespace {
__extension__ typedef unsigned __int128 uint128;  // GCC and Clang; keeps -Wpedantic quiet
}

std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t basis) {
  std::uint64_t h = basis;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::uint64_t mix64(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t combine64(std::uint64_t a, std::uint64_t b) {
  return mix64(a + 0x9e3779b97f4a7c15ULL + mix64(b));
}

std::uint64_t SplitMix64::next() {
  state_ += 0x9e3779b97f4a7c15ULL;
  return mix64(state_);
}

std::uint64_t SplitMix64::below(std::uint64_t bound) {
  // Lemire: the high 64 bits of x * bound are uniform once the biased low range is rejected.
  const std::uint64_t threshold = (0 - bound) % bound;
  for (;;) {
    const uint128 m = static_cast<uint128>(next()) * bound;
    if (static_cast<std::uint64_t>(m) >= threshold) return static_cast<std::uint64_t>(m >> 64);
  }
}

}  // namespace jbench
