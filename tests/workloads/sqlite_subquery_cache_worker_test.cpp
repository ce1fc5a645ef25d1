// params.subquery_cache and result.vm_steps in real worker runs of the reader lane: with the
// cache on, count_above_mean_weight is answered from the kept value (hits > 0) and the same seed
// costs SQLite fewer VM steps per operation than with it off, while every operation keeps its
// type and answer; vm_steps is counted with the cache off too, and is the same number whether
// the trace bridge records or not, since it is SQLite's own accounting.
#include <gtest/gtest.h>

#include "worker_fixture.h"

namespace jbench::test {
namespace {

constexpr std::uint64_t kMeasureOps = 2000;

class SqliteSubqueryCacheRuns : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    db_ = dir_->path() + "/d.db";
    build_dataset(db_, 4000, 8, 11);  // 63 groups
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  // One reader run with a fixed seed and the given cache policy; nullopt: the key is not sent.
  static json reader_run(const std::optional<std::string>& policy, const EnvChanges& env = {}) {
    WorkerOptions o;
    o.lane = "reader";
    o.seed = 7;
    o.ops_per_transaction = 20;
    o.warmup = {{"operations", 100}};
    o.measure = {{"operations", kMeasureOps}};
    json configure = configure_message(db_, o);
    if (policy) configure["params"]["subquery_cache"] = *policy;
    const Transcript t = run_to_completion(configure, env);
    EXPECT_EQ(t.exit.code, 0);
    EXPECT_EQ(t.result["status"], "ok") << t.result["conditions"];
    expect_consistent_result(t.result);
    return t.result;
  }

  static std::uint64_t scalar_ops(const json& r) {
    return r["operations_by_type"]["scalar_uncorrelated"].get<std::uint64_t>();
  }

  static TempDir* dir_;
  static std::string db_;
};

TempDir* SqliteSubqueryCacheRuns::dir_ = nullptr;
std::string SqliteSubqueryCacheRuns::db_;

TEST_F(SqliteSubqueryCacheRuns, OffCountsVmStepsAndReportsNoCache) {
  const json off = reader_run("off");
  ASSERT_TRUE(off.contains("vm_steps"));
  ASSERT_TRUE(off["vm_steps"].is_number_unsigned());
  // Every counted statement steps at least a few times; BEGIN and COMMIT too.
  EXPECT_GT(off["vm_steps"].get<std::uint64_t>(), 2 * kMeasureOps);
  EXPECT_FALSE(off.contains("subquery_cache"));
  // Not sending the key is the same as off.
  const json absent = reader_run(std::nullopt);
  EXPECT_FALSE(absent.contains("subquery_cache"));
  EXPECT_EQ(absent["vm_steps"], off["vm_steps"]);
}

TEST_F(SqliteSubqueryCacheRuns, TransactionPolicyHitsAndTakesFewerVmStepsPerOperation) {
  const json off = reader_run("off");
  const json cached = reader_run("transaction");

  ASSERT_TRUE(cached.contains("subquery_cache")) << cached.dump();
  const json& c = cached["subquery_cache"];
  EXPECT_EQ(c["policy"], "transaction");
  const auto hits = c["hits"].get<std::uint64_t>();
  const auto fills = c["fills"].get<std::uint64_t>();
  RecordProperty("hits", std::to_string(hits));
  RecordProperty("fills", std::to_string(fills));
  EXPECT_GT(hits, 0u);
  EXPECT_GT(fills, 0u);
  // Every counted count_above_mean_weight ran inside BEGIN..COMMIT, so through the cache, and
  // at most one filled it per transaction.
  EXPECT_EQ(hits + fills, scalar_ops(cached));
  EXPECT_LE(fills, cached["read_transactions"].get<std::uint64_t>());

  // The same operations, of the same types, with the same answers' row counts.
  EXPECT_EQ(cached["operations"], off["operations"]);
  EXPECT_EQ(cached["operations_by_type"], off["operations_by_type"]);
  EXPECT_EQ(cached["rows_returned"], off["rows_returned"]);
  EXPECT_EQ(cached["statements"], off["statements"]);

  const double per_op_off = off["vm_steps"].get<double>() / off["operations"].get<double>();
  const double per_op_cached =
      cached["vm_steps"].get<double>() / cached["operations"].get<double>();
  RecordProperty("vm_steps_per_op_off", std::to_string(per_op_off));
  RecordProperty("vm_steps_per_op_transaction", std::to_string(per_op_cached));
  EXPECT_LT(per_op_cached, per_op_off);
}

TEST_F(SqliteSubqueryCacheRuns, ConnectionPolicyFillsAtMostOnceOnAPersistentConnection) {
  const json r = reader_run("connection");
  const json& c = r["subquery_cache"];
  EXPECT_EQ(c["policy"], "connection");
  // Filled once for the connection's life, most likely in warmup already.
  EXPECT_LE(c["fills"].get<std::uint64_t>(), 1u);
  EXPECT_EQ(c["hits"].get<std::uint64_t>() + c["fills"].get<std::uint64_t>(), scalar_ops(r));
}

TEST_F(SqliteSubqueryCacheRuns, VmStepsAreTheSameWithTheBridgeRecording) {
  const json baseline = reader_run("transaction");
  const std::string raw = dir_->path() + "/light.raw";
  const json traced = reader_run("transaction", {{"JBENCH_BRIDGE_MODE", "light"},
                                                 {"JBENCH_BRIDGE_OUT", raw},
                                                 {"JBENCH_RUN_ID", "sqlite.subquery-cache.r1"}});
  EXPECT_EQ(traced["vm_steps"], baseline["vm_steps"]);
  EXPECT_EQ(traced["subquery_cache"], baseline["subquery_cache"]);
}

}  // namespace
}  // namespace jbench::test
