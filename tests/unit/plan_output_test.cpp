#include "jbench/plan/plan_output.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "jbench/plan/plan.h"
#include "matrix_text.h"
#include "test_hosts.h"

namespace jbench {
namespace {

TEST(PlanJson, records_seeds_as_strings_and_pairs_each_traced_run_with_its_baseline) {
  const Matrix m = test::must_parse(test::matrix_yaml());
  const Plan plan = make_plan(m, {}, kSmallHost);
  const auto doc = nlohmann::json::parse(plan_to_json(plan));
  EXPECT_EQ(doc["schema"], "jbench.plan");
  EXPECT_EQ(doc["matrix"]["seed"], "42");
  EXPECT_EQ(doc["counts"]["runs"], plan.counts.runs);
  ASSERT_EQ(doc["runs"].size(), plan.runs.size());
  std::map<std::string, nlohmann::json> by_id;
  for (const auto& r : doc["runs"]) by_id[r["id"]] = r;
  for (const auto& r : doc["runs"]) {
    ASSERT_TRUE(r["seed"].is_string());
    if (r["trace"] == "baseline") {
      EXPECT_FALSE(r.contains("baseline"));
      continue;
    }
    const auto& base = by_id.at(r["baseline"].get<std::string>());
    EXPECT_EQ(base["block"], r["block"]);
    EXPECT_EQ(base["seed"], r["seed"]);  // identical workload in both modes
  }
}

TEST(PlanJson, lists_defaulted_workload_parameters) {
  const auto doc = nlohmann::json::parse(
      plan_to_json(make_plan(test::must_parse(test::matrix_yaml()), {}, kSmallHost)));
  EXPECT_EQ(doc["matrix"]["workload"]["params"]["ops_per_transaction"], 10);
  EXPECT_EQ(doc["matrix"]["workload"]["defaulted"].size(), 10u);  // every sqlite parameter
}

TEST(PlanText, shows_counts_the_axis_table_and_the_order) {
  const Plan plan = make_plan(test::must_parse(test::matrix_yaml()), {}, kSmallHost);
  const std::string text = plan_to_text(plan);
  EXPECT_NE(text.find("cells   144 (144 in the product, 0 excluded): 144 measured"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("runs    288 in 72 blocks (2 repetitions)"), std::string::npos);
  EXPECT_NE(text.find("workers     4              measured"), std::string::npos);
  EXPECT_NE(text.find("time    unknown"), std::string::npos);  // measure counts operations
  EXPECT_NE(text.find("order   72 blocks"), std::string::npos);
}

}  // namespace
}  // namespace jbench
