// Properties of jbench::stats::LatencyHistogram: bucket geometry, the documented quantile error
// bound against exact order statistics, exact totals, merging, and the empty edge case.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "jbench/stats/histogram.h"

namespace jbench::stats {
namespace {

using H = LatencyHistogram;
constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

// std::mt19937_64's output sequence is fixed by the standard (unlike its distributions), so
// these data sets are the same everywhere. Values are drawn by bit tricks, not distributions.
std::vector<std::uint64_t> log_uniform(std::mt19937_64& rng, std::size_t n, unsigned max_bits) {
  std::vector<std::uint64_t> v(n);
  for (auto& x : v) {
    const unsigned bits = static_cast<unsigned>(rng() % (max_bits + 1));
    x = bits == 0 ? 0 : (rng() >> (64 - bits));
  }
  return v;
}

H histogram_of(const std::vector<std::uint64_t>& values) {
  H h;
  for (auto v : values) h.record(v);
  return h;
}

TEST(StatsHistogram, EmptyHistogramHasNoQuantilesExtremesOrMean) {
  const H h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_TRUE(h.sum_ns() == 0);
  EXPECT_FALSE(h.min_ns());
  EXPECT_FALSE(h.max_ns());
  EXPECT_FALSE(h.mean_ns());
  for (std::uint32_t ppm : {0u, kP50, kP90, kP99, kPpmMax}) EXPECT_FALSE(h.quantile_ns(ppm)) << ppm;
}

TEST(StatsHistogram, EveryValueFallsInOneBucketNoWiderThanOneThirtySecondOfItsLowerBound) {
  std::vector<std::uint64_t> probes = {0, 1, 31, 32, 33, 63, 64, 65, 1000, kMax - 1, kMax};
  for (unsigned e = 1; e < 64; ++e) {
    const std::uint64_t p = std::uint64_t{1} << e;
    probes.insert(probes.end(), {p - 1, p, p + 1});
  }
  std::mt19937_64 rng(1);
  for (auto v : log_uniform(rng, 20000, 64)) probes.push_back(v);
  for (auto v : probes) {
    const auto i = H::bucket_index(v);
    ASSERT_LT(i, H::kBucketCount) << v;
    const auto lower = H::bucket_lower_ns(i);
    const auto width = H::bucket_width_ns(i);
    ASSERT_LE(lower, v);
    ASSERT_LE(v - lower, width - 1) << v;  // v < lower + width, without overflow at 2^64
    if (v < 64) {
      ASSERT_EQ(width, 1u) << v;
    }
    if (v >= 32) {
      ASSERT_LE(width * 32, lower) << v;
    }
  }
  EXPECT_EQ(H::bucket_index(kMax), H::kBucketCount - 1);
}

TEST(StatsHistogram, BucketLowerBoundsAreStrictlyIncreasingAndRoundTrip) {
  for (std::size_t i = 0; i < H::kBucketCount; ++i) {
    ASSERT_EQ(H::bucket_index(H::bucket_lower_ns(i)), i);
    if (i > 0) {
      ASSERT_EQ(H::bucket_lower_ns(i - 1) + H::bucket_width_ns(i - 1), H::bucket_lower_ns(i));
    }
  }
}

TEST(StatsHistogram, NearestRankIsExactInIntegers) {
  EXPECT_EQ(nearest_rank(1, kP50), 1u);
  EXPECT_EQ(nearest_rank(100, 0), 1u);
  EXPECT_EQ(nearest_rank(100, kP50), 50u);
  EXPECT_EQ(nearest_rank(100, kP99), 99u);
  EXPECT_EQ(nearest_rank(101, kP99), 100u);  // ceil(99.99)
  EXPECT_EQ(nearest_rank(100, kPpmMax), 100u);
  EXPECT_EQ(nearest_rank(100, 2'000'000), 100u);  // clamped to the max
  EXPECT_EQ(nearest_rank(kMax, kPpmMax), kMax);
  EXPECT_EQ(nearest_rank(kMax, kP50), kMax / 2 + 1);
}

TEST(StatsHistogram, ValuesBelowSixtyFourAreExact) {
  std::vector<std::uint64_t> values;
  for (std::uint64_t v = 0; v < 64; ++v) values.insert(values.end(), v % 7 + 1, v);
  const H h = histogram_of(values);
  std::sort(values.begin(), values.end());
  for (std::uint32_t ppm = 0; ppm <= kPpmMax; ppm += 12'500) {
    EXPECT_EQ(h.quantile_ns(ppm), values[nearest_rank(values.size(), ppm) - 1]) << ppm;
  }
}

// The documented bound: |estimate - exact| <= exact / 64 for the nearest-rank quantile.
TEST(StatsHistogram, QuantilesStayWithinTheDocumentedRelativeError) {
  std::mt19937_64 rng(20240915);
  std::vector<std::vector<std::uint64_t>> data_sets = {
      {5'000},
      {1, kMax},
      {1'000, 1'001, 1'002},
      log_uniform(rng, 10, 40),
      log_uniform(rng, 1'000, 30),
      log_uniform(rng, 20'001, 64),
      std::vector<std::uint64_t>(777, 123'456'789),
  };
  std::vector<std::uint64_t> heavy_tail(5'000);
  for (auto& x : heavy_tail)
    x = 10'000 + (rng() % 100 == 0 ? rng() % 1'000'000'000 : rng() % 5'000);
  data_sets.push_back(heavy_tail);

  std::vector<std::uint32_t> ppms = {0, 1, 10'000, kP50, kP90, kP99, 999'000, 999'999, kPpmMax};
  for (int i = 0; i < 50; ++i) ppms.push_back(static_cast<std::uint32_t>(rng() % (kPpmMax + 1)));

  for (auto values : data_sets) {
    const H h = histogram_of(values);
    std::sort(values.begin(), values.end());
    for (auto ppm : ppms) {
      const std::uint64_t exact = values[nearest_rank(values.size(), ppm) - 1];
      const auto estimate = h.quantile_ns(ppm);
      ASSERT_TRUE(estimate);
      const std::uint64_t error = *estimate > exact ? *estimate - exact : exact - *estimate;
      ASSERT_LE(static_cast<long double>(error) * 64, static_cast<long double>(exact))
          << "n=" << values.size() << " ppm=" << ppm << " exact=" << exact
          << " estimate=" << *estimate;
    }
  }
}

TEST(StatsHistogram, CountSumMinAndMaxAreExactEvenPastTwoToTheSixtyFour) {
  H h;
  h.record(kMax);
  h.record(kMax);
  h.record(7);
  EXPECT_EQ(h.count(), 3u);
  EXPECT_TRUE(h.sum_ns() == uint128{kMax} * 2 + 7);
  EXPECT_EQ(h.min_ns(), 7u);
  EXPECT_EQ(h.max_ns(), kMax);
  EXPECT_EQ(h.quantile_ns(kPpmMax), kMax);  // the clamp keeps the answer at the exact max
  EXPECT_EQ(h.quantile_ns(0), 7u);
}

TEST(StatsHistogram, MergeEqualsRecordingEverythingIntoOne) {
  std::mt19937_64 rng(7);
  const auto values = log_uniform(rng, 9'000, 50);
  H parts[3];
  for (std::size_t i = 0; i < values.size(); ++i) parts[rng() % 3].record(values[i]);
  H forward;
  for (const auto& p : parts) forward.merge(p);
  H backward = parts[2];
  backward.merge(parts[1]);
  backward.merge(parts[0]);
  const H all = histogram_of(values);
  EXPECT_EQ(forward, all);
  EXPECT_EQ(backward, all);
}

TEST(StatsHistogram, MergingAnEmptyHistogramChangesNothing) {
  H h = histogram_of({3, 300, 30'000});
  const H before = h;
  h.merge(H{});
  EXPECT_EQ(h, before);
  H empty;
  empty.merge(before);
  EXPECT_EQ(empty, before);
}

TEST(StatsHistogram, FromPartsRejectsInconsistentTotals) {
  std::array<std::uint64_t, H::kBucketCount> counts{};
  counts[H::bucket_index(100)] = 2;
  EXPECT_TRUE(H::from_parts(counts, 200, 100, 100));
  EXPECT_FALSE(H::from_parts(counts, 199, 100, 100));  // sum below what the buckets allow
  EXPECT_FALSE(H::from_parts(counts, 200, 90, 100));   // min outside the first bucket
  EXPECT_FALSE(H::from_parts(counts, 200, 101, 100));  // min above max
  std::array<std::uint64_t, H::kBucketCount> none{};
  EXPECT_FALSE(H::from_parts(none, 5, 0, 0));  // empty but with a sum
}

}  // namespace
}  // namespace jbench::stats
