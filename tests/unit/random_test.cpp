#include "jbench/common/random.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

namespace jbench {
namespace {

TEST(Fnv1a64, matches_the_published_test_vectors) {
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ULL);
}

TEST(SplitMix64, produces_the_reference_sequence_for_seed_zero) {
  // First outputs of the reference SplitMix64 (Vigna) from state 0.
  SplitMix64 rng(0);
  EXPECT_EQ(rng.next(), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(rng.next(), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(rng.next(), 0x06c45d188009454fULL);
}

TEST(SplitMix64, below_stays_in_range_and_reaches_every_value) {
  SplitMix64 rng(7);
  std::vector<int> seen(6, 0);
  for (int i = 0; i < 6000; ++i) {
    const auto v = rng.below(6);
    ASSERT_LT(v, 6u);
    ++seen[v];
  }
  for (int count : seen) EXPECT_GT(count, 800);  // 1000 expected; a biased draw would not pass
}

TEST(StableShuffle, is_a_permutation_and_is_reproducible) {
  std::vector<int> a(100);
  std::iota(a.begin(), a.end(), 0);
  auto b = a;
  SplitMix64 r1(99), r2(99);
  stable_shuffle(std::span(a), r1);
  stable_shuffle(std::span(b), r2);
  EXPECT_EQ(a, b);
  auto sorted = a;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < 100; ++i) EXPECT_EQ(sorted[i], i);
  std::vector<int> identity(100);
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_NE(a, identity);
}

TEST(Combine64, is_order_sensitive) {
  EXPECT_NE(combine64(1, 2), combine64(2, 1));
  EXPECT_EQ(combine64(1, 2), combine64(1, 2));
}

}  // namespace
}  // namespace jbench
