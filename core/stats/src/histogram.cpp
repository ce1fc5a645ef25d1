#include "jbench/stats/histogram.h"

#include <algorithm>
#include <bit>

namespace jbench::stats {
namespace {

constexpr unsigned kBits = LatencyHistogram::kSubBucketBits;
constexpr std::uint64_t kSub = LatencyHistogram::kSubBuckets;

}  // namespace

std::size_t LatencyHistogram::bucket_index(std::uint64_t ns) {
  if (ns < kSub) return static_cast<std::size_t>(ns);
  // e = position of the top bit (>= kBits); the next kBits bits pick the sub-bucket.
  const unsigned e = static_cast<unsigned>(std::bit_width(ns)) - 1;
  const std::uint64_t sub = (ns >> (e - kBits)) - kSub;  // in [0, 32)
  return static_cast<std::size_t>(kSub * (e - kBits + 1) + sub);
}

std::uint64_t LatencyHistogram::bucket_lower_ns(std::size_t index) {
  if (index < kSub) return index;
  const unsigned e = static_cast<unsigned>(index / kSub) + kBits - 1;
  const std::uint64_t sub = index % kSub;
  return (kSub + sub) << (e - kBits);
}

std::uint64_t LatencyHistogram::bucket_width_ns(std::size_t index) {
  if (index < kSub) return 1;
  const unsigned e = static_cast<unsigned>(index / kSub) + kBits - 1;
  return std::uint64_t{1} << (e - kBits);
}

void LatencyHistogram::record(std::uint64_t ns) {
  ++counts_[bucket_index(ns)];
  ++count_;
  sum_ += ns;
  min_ = std::min(min_, ns);
  max_ = std::max(max_, ns);
}

void LatencyHistogram::merge(const LatencyHistogram& other) {
  for (std::size_t i = 0; i < kBucketCount; ++i) counts_[i] += other.counts_[i];
  count_ += other.count_;
  sum_ += other.sum_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
}

std::optional<std::uint64_t> LatencyHistogram::min_ns() const {
  if (count_ == 0) return std::nullopt;
  return min_;
}

std::optional<std::uint64_t> LatencyHistogram::max_ns() const {
  if (count_ == 0) return std::nullopt;
  return max_;
}

std::optional<double> LatencyHistogram::mean_ns() const {
  if (count_ == 0) return std::nullopt;
  return static_cast<double>(sum_) / static_cast<double>(count_);
}

std::uint64_t nearest_rank(std::uint64_t n, std::uint32_t ppm) {
  const uint128 p = std::min(ppm, kPpmMax);
  // ceil(n * p / 1e6) in 128 bits: exact for every n.
  const uint128 rank = (static_cast<uint128>(n) * p + (kPpmMax - 1)) / kPpmMax;
  return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(rank));
}

std::optional<std::uint64_t> LatencyHistogram::quantile_ns(std::uint32_t ppm) const {
  if (count_ == 0) return std::nullopt;
  const std::uint64_t rank = nearest_rank(count_, ppm);
  // The extremes are known exactly; no need to estimate them from a bucket.
  if (rank == 1) return min_;
  if (rank == count_) return max_;
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < kBucketCount; ++i) {
    seen += counts_[i];
    if (seen >= rank) {
      // Midpoint halves the worst-case error of reporting either edge; the clamp can only move
      // the answer towards the true value, which lies in [min, max].
      const std::uint64_t mid = bucket_lower_ns(i) + bucket_width_ns(i) / 2;
      return std::clamp(mid, min_, max_);
    }
  }
  return max_;  // unreachable while count_ equals the sum of the buckets
}

std::optional<LatencyHistogram> LatencyHistogram::from_parts(
    const std::array<std::uint64_t, kBucketCount>& counts, uint128 sum, std::uint64_t min,
    std::uint64_t max) {
  LatencyHistogram h;
  h.counts_ = counts;
  std::optional<std::size_t> first;
  std::size_t last = 0;
  for (std::size_t i = 0; i < kBucketCount; ++i) {
    if (counts[i] == 0) continue;
    if (!first) first = i;
    last = i;
    if (h.count_ + counts[i] < h.count_) return std::nullopt;  // count overflows uint64
    h.count_ += counts[i];
  }
  if (!first) {
    if (sum != 0) return std::nullopt;
    return h;
  }
  if (min > max || bucket_index(min) != *first || bucket_index(max) != last) return std::nullopt;
  // The exact sum must be reachable by values inside the recorded buckets and [min, max].
  uint128 low = 0;
  uint128 high = 0;
  for (std::size_t i = *first; i <= last; ++i) {
    const uint128 lo = std::max(bucket_lower_ns(i), min);
    const uint128 hi = std::min(bucket_lower_ns(i) + (bucket_width_ns(i) - 1), max);
    low += lo * counts[i];
    high += hi * counts[i];
  }
  if (sum < low || sum > high) return std::nullopt;
  h.sum_ = sum;
  h.min_ = min;
  h.max_ = max;
  return h;
}

}  // namespace jbench::stats
