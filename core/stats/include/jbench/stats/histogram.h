// A latency histogram in nanoseconds: exact counts in log-linear buckets, fixed memory,
// mergeable across workers, with exact count, sum, min and max beside the buckets.
//
//   jbench::stats::LatencyHistogram h;
//   h.record(1'250);                     // one operation that took 1.25 µs
//   h.merge(other_worker);               // exact: as if both had recorded into one
//   if (auto p99 = h.quantile_ns(jbench::stats::kP99)) { ... }  // nullopt when empty
//
// Buckets. Values below 32 ns have a bucket each (exact). Every octave [2^e, 2^(e+1)) with
// e >= 5 is cut into 32 equal buckets of width 2^(e-5), so a bucket is never wider than 1/32 of
// its lower bound. 1920 buckets cover the whole uint64 range; memory is fixed (~15 KiB) no matter
// how many values are recorded, and recording is O(1) with no allocation.
//
// Quantiles use the nearest-rank definition: the p-quantile of n values is the r-th smallest,
// r = max(1, ceil(n * p)), p given in parts per million so the rank is computed exactly in
// integers. Rank 1 and rank n are answered exactly (min and max are kept exactly); any other
// rank with the midpoint of the bucket holding the r-th value, clamped to [min, max]. The
// relative error against the exact order statistic is therefore at most 1/64, and values below
// 64 ns are exact.
//
// Edge cases: an empty histogram has no quantiles, no min, no max and no mean (std::nullopt);
// its count and sum are 0. The sum is 128-bit, so it cannot overflow for any uint64 input.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>

namespace jbench::stats {

// 128-bit unsigned, for sums of nanoseconds that can exceed 2^64.
__extension__ typedef unsigned __int128 uint128;

// Quantiles in parts per million (exact integer ranks).
inline constexpr std::uint32_t kP50 = 500'000;
inline constexpr std::uint32_t kP90 = 900'000;
inline constexpr std::uint32_t kP99 = 990'000;
inline constexpr std::uint32_t kPpmMax = 1'000'000;

class LatencyHistogram {
 public:
  static constexpr unsigned kSubBucketBits = 5;
  static constexpr std::uint64_t kSubBuckets = std::uint64_t{1} << kSubBucketBits;  // 32
  // 32 exact buckets for [0, 32), then 32 per octave for e = 5 .. 63.
  static constexpr std::size_t kBucketCount = kSubBuckets * (64 - kSubBucketBits + 1);

  // Index of the bucket holding `ns`; every uint64 value has exactly one.
  static std::size_t bucket_index(std::uint64_t ns);
  // Smallest value of bucket `index` (index < kBucketCount).
  static std::uint64_t bucket_lower_ns(std::size_t index);
  // Number of distinct values in bucket `index`: 1 below 64 ns, else lower / 32 or less.
  static std::uint64_t bucket_width_ns(std::size_t index);

  void record(std::uint64_t ns);
  // Adds every value recorded in `other`: the result equals recording both inputs into one.
  void merge(const LatencyHistogram& other);

  std::uint64_t count() const { return count_; }
  uint128 sum_ns() const { return sum_; }
  std::optional<std::uint64_t> min_ns() const;
  std::optional<std::uint64_t> max_ns() const;
  std::optional<double> mean_ns() const;
  // `ppm` in [0, 1'000'000] (larger values are treated as 1'000'000, i.e. the max).
  std::optional<std::uint64_t> quantile_ns(std::uint32_t ppm) const;

  std::uint64_t count_at(std::size_t index) const { return counts_[index]; }

  // Rebuilds a histogram from parts already checked by the caller (see histogram_json.h).
  // Precondition: the parts are consistent (sum of `counts` == count, min <= max inside the
  // first and last non-empty buckets). Returns nullopt when they are not.
  static std::optional<LatencyHistogram> from_parts(
      const std::array<std::uint64_t, kBucketCount>& counts, uint128 sum, std::uint64_t min,
      std::uint64_t max);

  bool operator==(const LatencyHistogram&) const = default;

 private:
  std::array<std::uint64_t, kBucketCount> counts_{};
  std::uint64_t count_ = 0;
  uint128 sum_ = 0;
  // Meaningful only when count_ > 0; the sentinels make merge() branch-free.
  std::uint64_t min_ = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t max_ = 0;
};

// The nearest rank (1-based) of quantile `ppm` among `n` > 0 values; exposed so tests and other
// readers use the same definition.
std::uint64_t nearest_rank(std::uint64_t n, std::uint32_t ppm);

}  // namespace jbench::stats
