#include "jbench/stats/histogram_json.h"

#include <nlohmann/json.hpp>
#include <set>
#include <string_view>

#include "jbench/stats/decimal.h"

namespace jbench::stats {
namespace {

using nlohmann::json;

json optional_ns(std::optional<std::uint64_t> v) {
  return v ? json(to_decimal(*v)) : json(nullptr);
}

const std::set<std::string_view> kKeys = {"format", "unit",   "sub_bucket_bits", "count",
                                          "sum_ns", "min_ns", "max_ns",          "p50_ns",
                                          "p90_ns", "p99_ns", "buckets"};

Error fail(std::string why) { return Error{"histogram: " + std::move(why), 0, ErrorKind::input}; }

// A required ns field of a non-empty histogram: a canonical decimal string.
Result<std::uint64_t> ns_field(const json& j, const char* key) {
  const auto& v = j.at(key);
  if (!v.is_string()) return fail(std::string(key) + " must be a decimal string");
  const auto parsed = parse_decimal_u64(v.get_ref<const std::string&>());
  if (!parsed) return fail(std::string(key) + " is not a canonical decimal uint64");
  return *parsed;
}

}  // namespace

json histogram_to_json(const LatencyHistogram& h) {
  json buckets = json::array();
  for (std::size_t i = 0; i < LatencyHistogram::kBucketCount; ++i) {
    if (h.count_at(i) == 0) continue;
    buckets.push_back(
        json::array({to_decimal(LatencyHistogram::bucket_lower_ns(i)), h.count_at(i)}));
  }
  return json{{"format", kHistogramFormat},
              {"unit", "ns"},
              {"sub_bucket_bits", LatencyHistogram::kSubBucketBits},
              {"count", h.count()},
              {"sum_ns", to_decimal(h.sum_ns())},
              {"min_ns", optional_ns(h.min_ns())},
              {"max_ns", optional_ns(h.max_ns())},
              {"p50_ns", optional_ns(h.quantile_ns(kP50))},
              {"p90_ns", optional_ns(h.quantile_ns(kP90))},
              {"p99_ns", optional_ns(h.quantile_ns(kP99))},
              {"buckets", std::move(buckets)}};
}

Result<LatencyHistogram> histogram_from_json(const json& j) {
  if (!j.is_object()) return fail("not an object");
  for (const auto& [key, _] : j.items()) {
    if (!kKeys.contains(key)) return fail("unknown key '" + key + "'");
  }
  for (std::string_view key : kKeys) {
    if (!j.contains(key)) return fail("missing key '" + std::string(key) + "'");
  }
  if (j["format"] != kHistogramFormat)
    return fail("format is not " + std::string(kHistogramFormat));
  if (j["unit"] != "ns") return fail("unit is not \"ns\"");
  if (!j["sub_bucket_bits"].is_number_unsigned() ||
      j["sub_bucket_bits"].get<unsigned>() != LatencyHistogram::kSubBucketBits) {
    return fail("sub_bucket_bits must be 5");
  }
  if (!j["count"].is_number_unsigned()) return fail("count must be a non-negative integer");
  const auto count = j["count"].get<std::uint64_t>();
  if (!j["sum_ns"].is_string()) return fail("sum_ns must be a decimal string");
  const auto sum = parse_decimal_u128(j["sum_ns"].get_ref<const std::string&>());
  if (!sum) return fail("sum_ns is not a canonical decimal");

  std::array<std::uint64_t, LatencyHistogram::kBucketCount> counts{};
  const auto& buckets = j["buckets"];
  if (!buckets.is_array()) return fail("buckets must be an array");
  std::optional<std::size_t> previous;
  for (const auto& b : buckets) {
    if (!b.is_array() || b.size() != 2 || !b[0].is_string() || !b[1].is_number_unsigned()) {
      return fail("each bucket must be [\"<lower_ns>\", <count>]");
    }
    const auto lower = parse_decimal_u64(b[0].get_ref<const std::string&>());
    if (!lower) return fail("bucket lower bound is not a canonical decimal uint64");
    const std::size_t index = LatencyHistogram::bucket_index(*lower);
    if (LatencyHistogram::bucket_lower_ns(index) != *lower) {
      return fail("bucket lower bound " + to_decimal(*lower) + " is not a bucket boundary");
    }
    if (previous && index <= *previous) return fail("buckets must be strictly increasing");
    const auto n = b[1].get<std::uint64_t>();
    if (n == 0) return fail("empty buckets are not listed");
    counts[index] = n;
    previous = index;
  }

  std::optional<LatencyHistogram> h;
  if (count == 0) {
    for (const char* key : {"min_ns", "max_ns", "p50_ns", "p90_ns", "p99_ns"}) {
      if (!j[key].is_null()) return fail(std::string(key) + " must be null when count is 0");
    }
    h = LatencyHistogram::from_parts(counts, *sum, 0, 0);
  } else {
    const auto min = ns_field(j, "min_ns");
    if (!min) return min.error();
    const auto max = ns_field(j, "max_ns");
    if (!max) return max.error();
    h = LatencyHistogram::from_parts(counts, *sum, *min, *max);
  }
  if (!h) return fail("count, sum, min, max and buckets are inconsistent");
  if (h->count() != count) return fail("count differs from the sum of the bucket counts");
  // Derived quantiles must be exactly what this version computes, or the reader is being lied to.
  const std::pair<const char*, std::uint32_t> quantiles[] = {
      {"p50_ns", kP50}, {"p90_ns", kP90}, {"p99_ns", kP99}};
  for (const auto& [key, ppm] : quantiles) {
    if (j[key] != optional_ns(h->quantile_ns(ppm))) {
      return fail(std::string(key) + " does not match the buckets");
    }
  }
  return *h;
}

}  // namespace jbench::stats
