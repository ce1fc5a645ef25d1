#include <gtest/gtest.h>

#include <set>

#include "jbench/plan/plan.h"
#include "matrix_text.h"
#include "test_hosts.h"

namespace jbench {
namespace {

ParsedFilters parse(const Matrix& m, std::vector<std::string> args) {
  return parse_only_filters(args, m);
}

std::set<std::string> run_ids(const Plan& plan) {
  std::set<std::string> ids;
  for (const auto& r : plan.runs) ids.insert(run_id(plan, r));
  return ids;
}

TEST(OnlyFilters, reject_unknown_axes_values_and_repeats) {
  const Matrix m = test::must_parse(test::matrix_yaml());
  EXPECT_EQ(parse(m, {"worker=1"}).errors.size(), 1u);
  EXPECT_NE(parse(m, {"worker=1"}).errors[0].find("did you mean 'workers'"), std::string::npos);
  EXPECT_EQ(parse(m, {"workers=3"}).errors.size(), 1u);
  EXPECT_EQ(parse(m, {"workers"}).errors.size(), 1u);
  EXPECT_EQ(parse(m, {"workers="}).errors.size(), 1u);
  EXPECT_EQ(parse(m, {"workers=1,1"}).errors.size(), 1u);
  EXPECT_EQ(parse(m, {"workers=1", "workers=2"}).errors.size(), 1u);
  EXPECT_TRUE(parse(m, {"workers=1,2", "lane=mixed"}).errors.empty());
}

TEST(OnlyFilters, move_values_to_planned_and_never_drop_cells) {
  const Matrix m = test::must_parse(test::matrix_yaml());
  const Plan all = make_plan(m, {}, kWideHost);
  const auto filters = parse(m, {"workers=2", "dataset=large"});
  ASSERT_TRUE(filters.errors.empty());
  const Plan some = make_plan(m, filters.filters, kWideHost);

  EXPECT_EQ(some.counts.cells, all.counts.cells);
  const auto& by_state = some.counts.cells_by_state;
  EXPECT_EQ(by_state[0] + by_state[1] + by_state[2] + by_state[3], some.counts.cells);
  EXPECT_EQ(by_state[0], all.counts.cells / 3 / 2);

  // The runs kept are exactly the unfiltered plan's runs with those values.
  std::set<std::string> expected;
  for (const auto& id : run_ids(all)) {
    if (id.rfind("w2.", 0) == 0 && id.find(".large.") != std::string::npos) expected.insert(id);
  }
  EXPECT_EQ(run_ids(some), expected);

  EXPECT_EQ(some.axes[0].values[0].state, PlanState::planned);
  EXPECT_EQ(some.axes[0].values[0].reason, "not selected by --only workers=2");
  EXPECT_EQ(some.axes[0].values[1].state, PlanState::measured);
  EXPECT_EQ(some.axes[3].values[0].state, PlanState::planned);
}

TEST(OnlyFilters, a_traced_mode_keeps_its_baseline) {
  const Matrix m = test::must_parse(test::matrix_yaml());
  const auto filters = parse(m, {"trace=full"});
  const Plan plan = make_plan(m, filters.filters, kWideHost);
  for (const auto& block : plan.blocks) {
    ASSERT_EQ(block.run_count, 2u);
  }
  const auto& trace = plan.axes.back();
  EXPECT_EQ(trace.values[0].label, "baseline");
  EXPECT_EQ(trace.values[0].state, PlanState::measured);
  EXPECT_NE(trace.values[0].reason.find("pairing baseline"), std::string::npos);
  EXPECT_EQ(trace.values[1].state, PlanState::planned);
  EXPECT_EQ(trace.values[3].state, PlanState::measured);
}

TEST(OnlyFilters, values_filtered_only_through_other_axes_say_so) {
  const Matrix m =
      test::must_parse(test::matrix_yaml("", "exclude:\n  - {workers: 1, dataset: small}\n"));
  const auto filters = parse(m, {"workers=1"});
  const Plan plan = make_plan(m, filters.filters, kWideHost);
  // dataset=small is itself selected, but its only workers=1 cells are excluded, and the rest
  // are filtered out by --only workers=1.
  EXPECT_EQ(plan.axes[3].values[0].state, PlanState::planned);
  EXPECT_EQ(plan.axes[3].values[0].reason, "its cells are not selected by --only on other axes");
}

}  // namespace
}  // namespace jbench

namespace jbench {
namespace {

TEST(UnavailableModes, stay_planned_with_the_reason_and_baselines_still_run) {
  const Matrix m = test::must_parse(test::matrix_yaml());
  PlanOptions options;
  for (auto mode : {TraceMode::no_consumer, TraceMode::light, TraceMode::full}) {
    options.unavailable_trace_modes[static_cast<std::size_t>(mode)] = "needs collectors";
  }
  const Plan plan = make_plan(m, {}, kWideHost, options);
  for (const auto& run : plan.runs) EXPECT_EQ(run.trace, TraceMode::baseline);
  EXPECT_EQ(plan.counts.blocks, plan.counts.runs);
  const auto& trace = plan.axes.back();
  EXPECT_EQ(trace.values[0].state, PlanState::measured);
  for (std::size_t i = 1; i < 4; ++i) {
    EXPECT_EQ(trace.values[i].state, PlanState::planned);
    EXPECT_EQ(trace.values[i].reason, "needs collectors");
  }
  for (const auto& cell : plan.cells) {
    if (cell.state == PlanState::planned) {
      EXPECT_EQ(describe_reason(plan, cell), "needs collectors");
    }
  }
}

TEST(UnavailableModes, an_implicit_baseline_without_a_traced_partner_does_not_run) {
  std::string yaml = test::matrix_yaml();
  yaml.replace(yaml.find("[baseline, no-consumer, light, full]"), 36, "[full]");
  PlanOptions options;
  options.unavailable_trace_modes[static_cast<std::size_t>(TraceMode::full)] = "needs collectors";
  const Plan plan = make_plan(test::must_parse(yaml), {}, kWideHost, options);
  EXPECT_EQ(plan.counts.runs, 0u);
  EXPECT_EQ(plan.axes.back().values[0].state, PlanState::planned);
  EXPECT_TRUE(plan.axes.back().values[0].implicit);
}

}  // namespace
}  // namespace jbench
