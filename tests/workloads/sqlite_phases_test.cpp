// Phase boundaries: duration phases end exactly at their deadline, only operations wholly inside
// the window are counted, straddling work is executed but not counted, and a mixed lane that
// did not mix is reported as a lane violation.
#include <gtest/gtest.h>

#include <chrono>

#include "worker_fixture.h"

namespace jbench::test {
namespace {

constexpr std::int64_t kPhaseRows = 2000;

struct DurationCase {
  std::string lane;
  std::string connection;
};
// Names the parameter in test output instead of dumping its bytes.
void PrintTo(const DurationCase& c, std::ostream* os) { *os << c.lane << "/" << c.connection; }

class SqliteDurationPhases : public ::testing::TestWithParam<DurationCase> {};

TEST_P(SqliteDurationPhases, EndAtTheDeadlineAndCountOnlyWhatFitsInside) {
  TempDir dir;
  const std::string db = dir.path() + "/d.db";
  build_dataset(db, kPhaseRows, 32, 3);
  WorkerOptions o;
  o.lane = GetParam().lane;
  o.connection = GetParam().connection;
  if (o.lane == "mixed") o.read_ratio = 0.5;
  o.synchronous = "off";
  o.ops_per_transaction = 16;
  o.warmup = {{"duration_ms", 50}};
  o.measure = {{"duration_ms", 300}};

  Worker w;
  w.send(configure_message(db, o));
  w.expect("ready");
  w.send({{"type", "canary"}});
  w.expect("canary_done");
  w.send({{"type", "start"}});
  const json warmup = w.expect("warmup_done");
  const auto sent = std::chrono::steady_clock::now();
  w.send({{"type", "measure"}});
  const json done = w.expect("measure_done");
  const auto waited = std::chrono::steady_clock::now() - sent;
  const json r = w.expect("result");
  w.send({{"type", "exit"}});
  w.expect("bye");
  EXPECT_EQ(w.expect_exit().code, 0);

  EXPECT_EQ(ns(warmup["t_end_ns"]) - ns(warmup["t_start_ns"]), 50'000'000u);
  EXPECT_EQ(ns(done["t_end_ns"]) - ns(done["t_start_ns"]), 300'000'000u);
  EXPECT_GE(ns(done["t_finished_ns"]), ns(done["t_end_ns"]));
  // Generous bounds only: the phase cannot end before its deadline, and must not hang.
  EXPECT_GE(waited, std::chrono::milliseconds(300));
  EXPECT_LT(waited, std::chrono::seconds(20));

  expect_consistent_result(r);
  EXPECT_EQ(r["status"], "ok") << r["conditions"].dump();
  EXPECT_GT(r["operations"], 0);
  // transaction.h: nothing starts after the deadline, so at most one operation straddles it.
  EXPECT_LE(r["straddled"], 1);
  EXPECT_LE(warmup["straddled"], 1);
  EXPECT_LE(r["transactions_straddled"], 1);
  EXPECT_EQ(done["straddled"], r["straddled"]);

  // Straddling inserts were executed and committed but not counted: the database holds every
  // counted insert plus at most the straddled operations.
  const std::int64_t counted_inserts = warmup["operations_by_type"]["insert"].get<std::int64_t>() +
                                       r["operations_by_type"]["insert"].get<std::int64_t>();
  const std::int64_t uncounted = count_items(db) - kPhaseRows - counted_inserts;
  EXPECT_GE(uncounted, 0);
  EXPECT_LE(uncounted,
            warmup["straddled"].get<std::int64_t>() + r["straddled"].get<std::int64_t>());
}

INSTANTIATE_TEST_SUITE_P(Lanes, SqliteDurationPhases,
                         ::testing::Values(DurationCase{"writer", "persistent"},
                                           DurationCase{"reader", "cold"},
                                           DurationCase{"mixed", "persistent"}),
                         [](const auto& test) {
                           return test.param.lane + "_" + test.param.connection;
                         });

class SqliteMixedLane : public ::testing::TestWithParam<double> {};

TEST_P(SqliteMixedLane, ThatDidNotMixIsALaneViolation) {
  TempDir dir;
  build_dataset(dir.path() + "/d.db", kPhaseRows, 8, 3);
  WorkerOptions o;
  o.lane = "mixed";
  o.read_ratio = GetParam();
  const Transcript t = run_to_completion(configure_message(dir.path() + "/d.db", o));
  const json& r = t.result;
  expect_consistent_result(r);
  EXPECT_EQ(r["status"], "error");
  ASSERT_EQ(r["conditions"].size(), 1u) << r["conditions"].dump();
  EXPECT_EQ(r["conditions"][0]["kind"], "lane_violation");
  EXPECT_EQ(r["reads"], GetParam() == 1.0 ? 40 : 0);
  EXPECT_EQ(r["writes"], GetParam() == 0.0 ? 40 : 0);
  EXPECT_EQ(t.exit.code, 0);  // a result condition, not a protocol failure
}

INSTANTIATE_TEST_SUITE_P(ReadRatioZeroAndOne, SqliteMixedLane, ::testing::Values(0.0, 1.0),
                         [](const auto& test) {
                           return test.param == 0.0 ? "only_writes" : "only_reads";
                         });

}  // namespace
}  // namespace jbench::test
