// The JSON form of LatencyHistogram: exact round trips (ns values past 2^53 included), the
// sparse [lower_ns, count] bucket list, and rejection of every kind of inconsistent document.
#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>

#include "jbench/stats/decimal.h"
#include "jbench/stats/histogram_json.h"

namespace jbench::stats {
namespace {

using nlohmann::json;
constexpr std::uint64_t kMaxU64 = std::numeric_limits<std::uint64_t>::max();

LatencyHistogram sample() {
  LatencyHistogram h;
  std::mt19937_64 rng(99);
  for (int i = 0; i < 5'000; ++i) h.record(rng() >> (rng() % 64));
  h.record((std::uint64_t{1} << 53) + 1);  // not representable as a double
  h.record(kMaxU64);
  return h;
}

TEST(StatsHistogramJson, RoundTripIsExact) {
  const LatencyHistogram h = sample();
  // Through text too: what a reader of the file gets back.
  const auto parsed = histogram_from_json(json::parse(histogram_to_json(h).dump()));
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(*parsed, h);
}

TEST(StatsHistogramJson, EmptyHistogramHasNullExtremesAndNoBuckets) {
  const json j = histogram_to_json(LatencyHistogram{});
  EXPECT_EQ(j["count"], 0);
  EXPECT_EQ(j["sum_ns"], "0");
  for (const char* key : {"min_ns", "max_ns", "p50_ns", "p90_ns", "p99_ns"}) {
    EXPECT_TRUE(j[key].is_null()) << key;
  }
  EXPECT_EQ(j["buckets"], json::array());
  const auto parsed = histogram_from_json(j);
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(*parsed, LatencyHistogram{});
}

TEST(StatsHistogramJson, NanosecondsAreDecimalStringsAndBucketsAreSparse) {
  LatencyHistogram h;
  for (std::uint64_t v : {5u, 5u, 100u, 1'000'000u}) h.record(v);
  h.record(kMaxU64);
  const json j = histogram_to_json(h);
  EXPECT_EQ(j["sum_ns"], to_decimal(uint128{kMaxU64} + 1'000'110));
  EXPECT_EQ(j["min_ns"], "5");
  EXPECT_EQ(j["max_ns"], to_decimal(kMaxU64));
  using Histogram = LatencyHistogram;
  // 1'000'000 is in the octave [2^19, 2^20), whose buckets are 2^14 wide.
  const std::uint64_t million_lower = 1'000'000 / 16'384 * 16'384;
  const json expected = json::array(
      {json::array({"5", 2}), json::array({"100", 1}), json::array({to_decimal(million_lower), 1}),
       json::array({to_decimal(Histogram::bucket_lower_ns(Histogram::kBucketCount - 1)), 1})});
  EXPECT_EQ(j["buckets"], expected);
}

// Each mutation turns a valid document into one that must be refused.
TEST(StatsHistogramJson, RejectsInconsistentOrNonCanonicalDocuments) {
  LatencyHistogram h;
  for (std::uint64_t v : {40u, 41u, 5'000u}) h.record(v);
  const json valid = histogram_to_json(h);
  ASSERT_TRUE(histogram_from_json(valid));

  const std::vector<std::pair<const char*, std::function<void(json&)>>> mutations = {
      {"count mismatch", [](json& j) { j["count"] = 4; }},
      {"negative count", [](json& j) { j["count"] = -3; }},
      {"sum as number", [](json& j) { j["sum_ns"] = 5081; }},
      {"sum out of reach", [](json& j) { j["sum_ns"] = "10"; }},
      {"leading zero", [](json& j) { j["min_ns"] = "040"; }},
      {"min outside first bucket", [](json& j) { j["min_ns"] = "39"; }},
      {"max below min", [](json& j) { j["max_ns"] = "30"; }},
      {"lower bound as number", [](json& j) { j["buckets"][0][0] = 40; }},
      {"not a bucket boundary", [](json& j) { j["buckets"][2][0] = "5001"; }},
      {"zero-count bucket",
       [](json& j) {
         j["buckets"].push_back(json::array({"9000", 0}));
       }},
      {"unsorted buckets", [](json& j) { std::swap(j["buckets"][0], j["buckets"][2]); }},
      {"duplicate bucket", [](json& j) { j["buckets"][1] = j["buckets"][0]; }},
      {"bucket not a pair", [](json& j) { j["buckets"][0] = json::array({"40"}); }},
      {"wrong quantile", [](json& j) { j["p50_ns"] = "40"; }},
      {"missing quantile", [](json& j) { j.erase("p99_ns"); }},
      {"unknown key", [](json& j) { j["mean_ns"] = "1"; }},
      {"wrong format", [](json& j) { j["format"] = "hdr"; }},
      {"wrong unit", [](json& j) { j["unit"] = "us"; }},
      {"other geometry", [](json& j) { j["sub_bucket_bits"] = 7; }},
      {"not an object", [](json& j) { j = json::array(); }},
  };
  for (const auto& [name, mutate] : mutations) {
    json j = valid;
    mutate(j);
    const auto parsed = histogram_from_json(j);
    ASSERT_FALSE(parsed) << name;
    EXPECT_FALSE(parsed.error().message.empty()) << name;
  }
}

TEST(StatsDecimal, OnlyCanonicalDecimalsParse) {
  EXPECT_EQ(to_decimal(std::uint64_t{0}), "0");
  EXPECT_EQ(to_decimal(kMaxU64), "18446744073709551615");
  EXPECT_EQ(to_decimal(~uint128{0}), "340282366920938463463374607431768211455");
  EXPECT_EQ(parse_decimal_u64("18446744073709551615"), kMaxU64);
  EXPECT_EQ(parse_decimal_u64("0"), 0u);
  for (const char* bad :
       {"", "18446744073709551616", "-1", "+1", " 1", "1 ", "01", "1e3", "0x10"}) {
    EXPECT_FALSE(parse_decimal_u64(bad)) << '"' << bad << '"';
  }
  EXPECT_TRUE(parse_decimal_u128("340282366920938463463374607431768211455"));
  EXPECT_FALSE(parse_decimal_u128("340282366920938463463374607431768211456"));
}

}  // namespace
}  // namespace jbench::stats
