// Calibration of the comparison by simulation from recorded variance: the throughputs of the
// checked-in writer bundles (real runs on this kind of host) are resampled to make many
// comparisons of a 40-cell matrix. The same build against itself (A/A) must flag at most 5% of
// cells at the default FDR; a planted 5% slowdown must be found with the power the formula
// predicts at the repetitions it asks for (stats/power.h) — which is how the nightly's
// repetition count is chosen from its recorded variance.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "jbench/common/random.h"
#include "jbench/compare/compare.h"
#include "jbench/matrix/load.h"
#include "jbench/stats/power.h"

namespace jbench::compare {
namespace {

const std::string kBundles = JBENCH_SOURCE_DIR + "/tests/fixtures/compare/bundles";

// The recorded baseline throughputs of both same-build bundles.
std::vector<double> recorded() {
  std::vector<double> out;
  for (const char* b : {"writer-a", "writer-b"}) {
    CompareSide s = read_compare_side(kBundles + "/" + b);
    EXPECT_TRUE(s.valid) << b;
    for (const auto& [cell, c] : s.cells) {
      auto it = c.metrics.find("throughput_ops_per_s");
      if (it != c.metrics.end()) out.insert(out.end(), it->second.begin(), it->second.end());
    }
  }
  return out;
}

CompareSide side(const CompareSide& shape, const std::string& dir) {
  CompareSide s = shape;
  s.dir = dir;
  s.cells.clear();
  return s;
}

// `cells` cells of `reps` runs per side, resampled from `values`; the candidate scaled by
// `factor` (0.95: 5% slower). Returns the cells flagged regressed or improved.
std::size_t flagged(const std::vector<double>& values, const CompareSide& shape, std::size_t cells,
                    std::size_t reps, double factor, SplitMix64& rng, bool regressions_only) {
  CompareSide base = side(shape, "base"), cand = side(shape, "candidate");
  for (std::size_t c = 0; c < cells; ++c) {
    auto& b = base.cells["c" + std::to_string(c)];
    auto& k = cand.cells["c" + std::to_string(c)];
    b.ok = k.ok = b.runs = k.runs = reps;
    for (std::size_t r = 0; r < reps; ++r) {
      b.metrics["throughput_ops_per_s"].push_back(values[rng.below(values.size())]);
      k.metrics["throughput_ops_per_s"].push_back(values[rng.below(values.size())] * factor);
    }
  }
  CompareOptions o;
  o.resamples = 400;
  Comparison c = compare_bundles(base, cand, o);
  std::size_t n = 0;
  for (const MetricRow& r : c.rows) {
    n += r.verdict == Verdict::regressed || (!regressions_only && r.verdict == Verdict::improved);
  }
  return n;
}

TEST(Calibration, the_same_build_twice_flags_at_most_five_percent_of_cells) {
  std::vector<double> values = recorded();
  ASSERT_GE(values.size(), 12u);
  CompareSide shape = read_compare_side(kBundles + "/writer-a");
  SplitMix64 rng(1);
  std::size_t flagged_cells = 0, cells = 0;
  for (int matrix = 0; matrix < 50; ++matrix) {
    flagged_cells += flagged(values, shape, 40, 10, 1.0, rng, false);
    cells += 40;
  }
  const double rate = static_cast<double>(flagged_cells) / static_cast<double>(cells);
  EXPECT_LE(rate, 0.05) << flagged_cells << " of " << cells;
  RecordProperty("aa_flagged_cells",
                 std::to_string(flagged_cells) + " of " + std::to_string(cells));
}

TEST(Calibration, a_five_percent_slowdown_is_found_with_the_predicted_power) {
  std::vector<double> values = recorded();
  CompareSide shape = read_compare_side(kBundles + "/writer-a");
  const double cv = stats::coefficient_of_variation(values.data(), values.size());
  // The repetitions the formula asks for to see 5% with 90% power at the 5% level.
  const std::size_t reps = stats::repetitions_needed(cv, 0.05, 0.05, 0.9);
  ASSERT_GE(reps, 3u);
  SplitMix64 rng(2);
  std::size_t found = 0;
  const std::size_t trials = 300;
  for (std::size_t t = 0; t < trials; ++t)
    found += flagged(values, shape, 1, reps, 0.95, rng, true);
  // One cell per comparison (no FDR penalty): the simulated power is at least near the predicted
  // 90% (the formula assumes normal data; it is conservative for these recorded values).
  const double power = static_cast<double>(found) / trials;
  EXPECT_GE(power, 0.8) << "cv " << cv << ", " << reps << " repetitions";
  RecordProperty("recorded_cv", std::to_string(cv));
  RecordProperty("repetitions_for_5pct_at_90pct_power", std::to_string(reps));
  RecordProperty("simulated_power", std::to_string(power));
}

}  // namespace
}  // namespace jbench::compare
