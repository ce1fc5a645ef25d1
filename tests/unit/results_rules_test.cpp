// The pure rules behind a run's verdicts: the lane rule over a whole run, Jain's fairness index
// and the starved count, and the axis states execution delivered.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

#include "jbench/run_summaries/execution.h"
#include "jbench/run_summaries/fairness.h"
#include "jbench/run_summaries/lanes.h"
#include "jbench/run_summaries/summary.h"

namespace jbench {
namespace {

using nlohmann::json;

// The cells table: rows in the order given, a traced row's `vs base` its point's baseline median
// over its own; "-" for a baseline, and for a traced row whose point has no baseline here.
TEST(CellTable, a_traced_row_shows_its_baseline_over_its_own_median_throughput) {
  const auto line = [](std::string cell, std::string point, bool baseline, double ops) {
    CellLine l;
    l.cell = std::move(cell);
    l.point = std::move(point);
    l.baseline = baseline;
    RunFigures figures;
    figures.throughput_ops_per_s = ops;
    l.add_run(true, figures);
    return l;
  };
  const std::string table =
      format_cell_table({line("p.baseline", "p", true, 100), line("p.full", "p", false, 80),
                         line("q.light", "q", false, 50)});
  std::istringstream in(table);
  std::vector<std::vector<std::string>> rows;
  for (std::string l; std::getline(in, l);) {
    std::istringstream words(l);
    rows.emplace_back(std::istream_iterator<std::string>(words),
                      std::istream_iterator<std::string>());
  }
  ASSERT_EQ(rows.size(), 4u) << table;
  EXPECT_EQ(rows[0][6], "vs");  // the header's "vs base" (its earlier titles are two words)
  EXPECT_EQ(rows[1][0], "p.baseline");
  EXPECT_EQ(rows[1][4], "-");
  EXPECT_EQ(rows[2][0], "p.full");
  EXPECT_EQ(rows[2][4], "x1.25");
  EXPECT_EQ(rows[3][0], "q.light");
  EXPECT_EQ(rows[3][4], "-");
  // The same rows as figures: the ratio as a number, empty where the text says "-".
  const Table figures =
      cell_table({line("p.baseline", "p", true, 100), line("p.full", "p", false, 80),
                  line("q.light", "q", false, 50)});
  ASSERT_EQ(figures.rows.size(), 3u);
  EXPECT_EQ(figures.columns[6], "vs_baseline_ratio");
  EXPECT_EQ(figures.rows[0][6], "");
  EXPECT_EQ(figures.rows[1][6], "1.2500");
  EXPECT_EQ(figures.rows[1][3], "80.0");
  EXPECT_EQ(figures.rows[2][6], "");
}

// A summary.json read back gives the figures the run computed; one without them reads as absent,
// and an edited one with a field of another type is an error naming that field, never an
// exception and never a figure made up.
TEST(CellTable, a_summary_read_back_gives_its_figures_and_an_odd_field_is_named) {
  const nlohmann::json summary = {
      {"throughput_ops_per_s", 1234.5},
      {"workers", {{"count", 4}, {"starved", 1}, {"jain_fairness_index", 0.9}}},
      {"latency", {{"all_operations", {{"p50_ns", "1500"}, {"p99_ns", "64000"}}}}}};
  const auto read = model::read_summary(summary, "summary.json");
  ASSERT_TRUE(read) << read.error().message;
  const RunFigures f = figures_of(*read);
  EXPECT_DOUBLE_EQ(f.throughput_ops_per_s, 1234.5);
  EXPECT_EQ(f.workers, 4u);
  EXPECT_EQ(f.starved, 1u);
  EXPECT_EQ(f.p50_ns, std::optional<std::uint64_t>(1500));
  EXPECT_EQ(f.p99_ns, std::optional<std::uint64_t>(64000));
  const auto bare = model::read_summary(nlohmann::json::object(), "summary.json");
  ASSERT_TRUE(bare) << bare.error().message;
  EXPECT_DOUBLE_EQ(figures_of(*bare).throughput_ops_per_s, 0);
  EXPECT_EQ(figures_of(*bare).p50_ns, std::nullopt);
  EXPECT_EQ(figures_of(*bare).jain_fairness_index, std::nullopt);
  EXPECT_EQ(figures_of(*bare).workers, 0u);
  for (const auto& [odd, pointer] : std::vector<std::pair<nlohmann::json, std::string>>{
           {{{"throughput_ops_per_s", "fast"}}, "/throughput_ops_per_s"},
           {{{"workers", 3}}, "/workers"},
           {{{"latency", {{"all_operations", 7}}}}, "/latency/all_operations"},
           {{{"measure", {{"operations", "many"}}}}, "/measure/operations"}}) {
    const auto wrong = model::read_summary(odd, "summary.json");
    ASSERT_FALSE(wrong) << odd.dump();
    EXPECT_THAT(wrong.error().message, testing::HasSubstr("summary.json " + pointer + ":"));
  }
}

TEST(LaneMix, a_run_as_a_whole_must_do_what_its_lane_says) {
  EXPECT_TRUE(check_lane_mix("mixed", 3, 1).ok());
  EXPECT_FALSE(check_lane_mix("mixed", 3, 0).ok());
  EXPECT_FALSE(check_lane_mix("mixed", 0, 3).ok());
  EXPECT_TRUE(check_lane_mix("writer", 0, 5).ok());
  EXPECT_FALSE(check_lane_mix("writer", 0, 0).ok());  // every writer starved: nothing measured
  EXPECT_FALSE(check_lane_mix("writer", 1, 5).ok());
  EXPECT_TRUE(check_lane_mix("reader", 5, 0).ok());
  EXPECT_FALSE(check_lane_mix("reader", 5, 1).ok());
  const Status why = check_lane_mix("mixed", 7, 0);
  ASSERT_FALSE(why.ok());
  EXPECT_EQ(why.error().message.rfind("lane_violation: lane mixed: no worker wrote", 0), 0u)
      << why.error().message;
}

TEST(JainIndex, is_one_for_equal_shares_and_one_over_n_for_one_worker_doing_everything) {
  EXPECT_DOUBLE_EQ(*jain_index({5, 5, 5, 5}), 1.0);
  EXPECT_DOUBLE_EQ(*jain_index({8, 0, 0, 0}), 0.25);
  EXPECT_NEAR(*jain_index({1, 2, 3}), 36.0 / (3 * 14), 1e-15);
  EXPECT_FALSE(jain_index({}));
  EXPECT_FALSE(jain_index({0, 0}));  // nothing progressed: nothing to share out
}

json result(int index, std::uint64_t ops, double ops_per_s) {
  return {{"worker_index", index},
          {"operations", ops},
          {"throughput_ops_per_s", ops_per_s},
          {"retries", 2},
          {"busy_waits", ops == 0 ? 3 : 0},
          {"busy_wait_ns", ops == 0 ? "900000000" : "0"}};
}

TEST(WorkerFairness, counts_starved_workers_and_keeps_what_they_waited_on) {
  const json w = worker_fairness({result(0, 100, 250.0), result(1, 0, 0.0), result(2, 60, 150.0)});
  EXPECT_EQ(w["count"], 3);
  EXPECT_EQ(w["starved"], 1);
  EXPECT_EQ(w["throughput_min_ops_per_s"], 0.0);
  EXPECT_EQ(w["throughput_max_ops_per_s"], 250.0);
  EXPECT_NEAR(w["jain_fairness_index"].get<double>(), 400.0 * 400 / (3 * (62500 + 22500.0)), 1e-12);
  EXPECT_TRUE(w["throughput_cv"].is_number());
  EXPECT_EQ(w["per_worker"][1]["starved"], true);
  EXPECT_EQ(w["per_worker"][1]["busy_waits"], 3);
  EXPECT_EQ(w["per_worker"][1]["busy_wait_ns"], "900000000");
  EXPECT_EQ(w["per_worker"][0]["starved"], false);
  const json one = worker_fairness({result(0, 10, 5.0)});
  EXPECT_TRUE(one["throughput_cv"].is_null());  // no spread from one worker
  EXPECT_DOUBLE_EQ(one["jain_fairness_index"].get<double>(), 1.0);
  EXPECT_TRUE(worker_fairness({result(0, 0, 0.0)})["jain_fairness_index"].is_null());
}

json axis(const std::string& name, std::vector<std::pair<std::string, std::string>> values) {
  json out = {{"axis", name}, {"values", json::array()}};
  for (const auto& [v, state] : values) out["values"].push_back({{"value", v}, {"state", state}});
  return out;
}

json run(const std::string& lane, const std::string& status, const std::string& reason = "") {
  return {
      {"values", {{"lane", lane}, {"trace", "baseline"}}}, {"status", status}, {"reason", reason}};
}

TEST(ExecutionStates, measured_needs_one_ok_run_and_failures_keep_their_first_reason) {
  const json axes = json::array({axis("lane", {{"writer", "measured"},
                                               {"mixed", "measured"},
                                               {"reader", "measured"},
                                               {"extra", "planned"}}),
                                 axis("trace", {{"baseline", "measured"}})});
  const json runs = json::array({run("writer", "failed", "worker 0 ended with exit 7"),
                                 run("writer", "timeout", "later"), run("mixed", "failed", "x"),
                                 run("mixed", "ok"), run("reader", "not_run", "interrupted")});
  const json e = execution_states(axes, runs);
  const json& lane = e[0]["values"];
  EXPECT_EQ(lane[0]["state"], "attempted_failed");
  EXPECT_EQ(lane[0]["first_reason"], "worker 0 ended with exit 7");
  EXPECT_EQ(lane[0]["runs"]["failed"], 1);
  EXPECT_EQ(lane[0]["runs"]["timeout"], 1);
  EXPECT_EQ(lane[1]["state"], "measured");
  EXPECT_TRUE(lane[1]["first_reason"].is_null());
  EXPECT_EQ(lane[2]["state"], "not_run");
  EXPECT_EQ(lane[2]["first_reason"], "interrupted");
  EXPECT_EQ(lane[3]["state"], "planned");  // never meant to run
  EXPECT_EQ(e[1]["values"][0]["state"], "measured");
  const auto lines = unmeasured_values(e);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0],
            "lane=writer was meant to be measured but is attempted_failed: worker 0 ended with "
            "exit 7");
  EXPECT_EQ(lines[1], "lane=reader was meant to be measured but is not_run: interrupted");
}

}  // namespace
}  // namespace jbench
