// LatencyHistogram <-> JSON. The document is self-describing and self-checking:
//
//   {"format": "jbench.latency_histogram/1", "unit": "ns", "sub_bucket_bits": 5,
//    "count": 3, "sum_ns": "2100", "min_ns": "100", "max_ns": "1000",
//    "p50_ns": "1000", "p90_ns": "1000", "p99_ns": "1000",
//    "buckets": [["100", 1], ["992", 2]]}        // recorded: 100, 1000, 1000
//
// `buckets` is sparse: only non-empty buckets, in increasing order, each [lower bound in ns as a
// decimal string, count]. Every ns value is a decimal string (it may exceed 2^53); counts are
// JSON integers. min/max/quantiles are null for an empty histogram. The quantiles are derived
// data written for readers' convenience; histogram_from_json recomputes and compares them.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "jbench/common/result.h"
#include "jbench/stats/histogram.h"

namespace jbench::stats {

inline constexpr const char* kHistogramFormat = "jbench.latency_histogram/1";

nlohmann::json histogram_to_json(const LatencyHistogram& h);

// The histogram, or, when the document is not one written by histogram_to_json (wrong format,
// unknown key, non-canonical number, inconsistent totals), why not ("histogram: ...").
Result<LatencyHistogram> histogram_from_json(const nlohmann::json& j);

}  // namespace jbench::stats
