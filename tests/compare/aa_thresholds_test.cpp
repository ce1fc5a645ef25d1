// Each metric's threshold from its measured A/A noise (aa_thresholds.h): the farthest its
// intervals strayed from 1 over every cell and report, never below the floor; a report that is
// not an A/A comparison refused; and a comparison judged against each metric's own threshold, so
// that a 4% change a quiet metric shows is a verdict where wall time's 10% would call it nothing.
#include "jbench/compare/aa_thresholds.h"

#include <gtest/gtest.h>

#include "hand_made_side.h"
#include "jbench/compare/compare.h"

namespace jbench::compare {
namespace aa_thresholds {

using Json = nlohmann::json;

Json row(const std::string& cell, const std::string& metric, Json lo, Json hi) {
  return {{"cell", cell}, {"metric", metric}, {"ci_low", lo}, {"ci_high", hi}};
}

Json report(Json rows) {
  return {{"schema", "jbench.compare_report"},
          {"build_differences", Json::array()},
          {"setting_differences", Json::array()},
          {"rows", std::move(rows)}};
}

TEST(AaThresholds, each_metric_takes_the_farthest_its_intervals_strayed_never_below_the_floor) {
  const Json night1 =
      report({row("a", "throughput_ops_per_s", 0.95, 1.03),
              row("b", "throughput_ops_per_s", 0.99, 1.07), row("a", "vm_steps_per_op", 1.0, 1.0),
              row("a", "p99_ns", nullptr, nullptr)});  // too few runs: no interval
  const Json night2 = report({row("a", "throughput_ops_per_s", 0.94, 1.01)});
  const AaThresholds aa = thresholds_from_aa({{"n1.json", night1}, {"n2.json", night2}}, 0.001);
  EXPECT_TRUE(aa.problems.empty());
  EXPECT_EQ(aa.rows, 4u);
  EXPECT_DOUBLE_EQ(aa.thresholds.at("throughput_ops_per_s"), 1.07 - 1.0);
  EXPECT_DOUBLE_EQ(aa.thresholds.at("vm_steps_per_op"), 0.001);
  EXPECT_FALSE(aa.thresholds.count("p99_ns"));
}

TEST(AaThresholds, a_report_of_two_builds_or_not_a_report_is_refused_by_name) {
  Json ab = report({row("a", "throughput_ops_per_s", 0.9, 1.1)});
  ab["build_differences"] = {"jbench-sqlite-worker: sha256 abc -> def"};
  const AaThresholds aa =
      thresholds_from_aa({{"ab.json", ab}, {"x.json", Json{{"schema", "jbench.history"}}}}, 0.001);
  ASSERT_EQ(aa.problems.size(), 2u);
  EXPECT_NE(aa.problems[0].find("ab.json: its two sides differ"), std::string::npos);
  EXPECT_NE(aa.problems[1].find("x.json: not a jbench compare report"), std::string::npos);
  EXPECT_TRUE(aa.thresholds.empty());
}

CompareSide side(const std::string& dir, double scale) {
  std::vector<double> values;
  for (double v : {100.0, 100.2, 99.8, 100.1, 99.9, 100.05, 99.95, 100.0}) {
    values.push_back(v * scale);
  }
  return test::hand_made_side(dir, "cpu_ns_per_op", std::move(values));
}

TEST(AaThresholds, a_metric_is_judged_against_its_own_threshold) {
  const CompareSide base = side("a", 1.0), slower = side("b", 1.04);
  CompareOptions wall;
  wall.threshold = 0.10;
  const Comparison with_one = compare_bundles(base, slower, wall);
  ASSERT_EQ(with_one.rows.size(), 1u);
  EXPECT_NE(with_one.rows[0].verdict, Verdict::regressed);  // 4% is within ±10%
  CompareOptions own = wall;
  own.metric_thresholds["cpu_ns_per_op"] = 0.01;
  const Comparison with_own = compare_bundles(base, slower, own);
  ASSERT_EQ(with_own.rows.size(), 1u);
  EXPECT_EQ(with_own.rows[0].verdict, Verdict::regressed);
  EXPECT_DOUBLE_EQ(with_own.rows[0].threshold, 0.01);
  const Json doc = comparison_to_json(with_own);
  EXPECT_DOUBLE_EQ(doc["metric_thresholds"]["cpu_ns_per_op"].get<double>(), 0.01);
  EXPECT_NE(comparison_to_text(with_own).find("cpu_ns_per_op 1.0%"), std::string::npos);
}

}  // namespace aa_thresholds
}  // namespace jbench::compare
