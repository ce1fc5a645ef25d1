// What the Chez worker reports is what it did, in the harness's own terms: the result validates
// against manifests/worker-result.schema.json, every histogram is exactly what core/stats
// computes from the same buckets, the phases count by the protocol's rules, lanes do what their
// label says, the stream is a function of the seed, and every garbage collection is counted.
#include <gtest/gtest.h>

#include <string>

#include "chez_worker.h"
#include "jbench/schema/json_schema.h"
#include "jbench/stats/histogram_json.h"

namespace jbench::test {
namespace {

const char* const kOpTypes[] = {"lookup", "range_sort", "tree_build", "replace", "update"};
const char* const kReadTypes[] = {"lookup", "range_sort", "tree_build"};

class ChezResult : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { data_ = new ChezDataset(3000, 48, 11); }
  static void TearDownTestSuite() {
    delete data_;
    data_ = nullptr;
  }
  static Session run(ChezOptions o) {
    Session s = run_session(configure_message(data_->db, o));
    if (!s.exit.exited || s.exit.code != 0) throw std::runtime_error("the worker failed");
    return s;
  }
  static ChezDataset* data_;
};
ChezDataset* ChezResult::data_ = nullptr;

// The histogram, re-read by the harness's parser (which recomputes every quantile and rejects
// a document that disagrees with its buckets); returns its count.
std::uint64_t checked_count(const json& doc) {
  const auto parsed = stats::histogram_from_json(doc);
  if (!parsed) throw std::runtime_error(parsed.error().message + ": " + doc.dump());
  return parsed->count();
}

std::uint64_t u(const json& v) { return v.get<std::uint64_t>(); }

class ChezResultByLane : public ChezResult, public ::testing::WithParamInterface<std::string> {};

TEST_P(ChezResultByLane, ResultValidatesAndAgreesWithItself) {
  ChezOptions o;
  o.lane = GetParam();
  if (o.lane == "mixed") o.read_ratio = 0.5;
  const Session s = run(o);
  const json& r = s.result;

  const auto schema = JsonSchema::builtin("worker-result.schema.json");
  ASSERT_TRUE(schema) << schema.error().message;
  for (const auto& v : schema->validate(r)) ADD_FAILURE() << v.pointer << ": " << v.message;

  EXPECT_EQ(r["status"], "ok") << r["conditions"].dump();
  EXPECT_EQ(r["worker"], "chez");
  EXPECT_EQ(r["lane"], o.lane);
  std::uint64_t sum = 0;
  std::uint64_t reads = 0;
  for (const char* type : kOpTypes) {
    const std::uint64_t n = u(r["operations_by_type"][type]);
    EXPECT_EQ(checked_count(r["latency_ns"][type]), n) << type;
    sum += n;
  }
  for (const char* type : kReadTypes) reads += u(r["operations_by_type"][type]);
  EXPECT_EQ(sum, u(r["operations"]));
  EXPECT_EQ(reads, u(r["reads"]));
  EXPECT_EQ(u(r["reads"]) + u(r["writes"]), u(r["operations"]));
  EXPECT_EQ(checked_count(r["latency_ns"]["transaction"]), u(r["transactions"]));
  EXPECT_EQ(u(r["read_transactions"]) + u(r["write_transactions"]), u(r["transactions"]));
  // The lane's label is a fact about what ran.
  EXPECT_EQ(u(r["reads"]) > 0, o.lane != "writer");
  EXPECT_EQ(u(r["writes"]) > 0, o.lane != "reader");
  EXPECT_EQ(r["dataset"]["rows"], 3000);
  EXPECT_EQ(r["dataset"]["row_bytes"], 48);
}

INSTANTIATE_TEST_SUITE_P(Lanes, ChezResultByLane, ::testing::Values("writer", "reader", "mixed"));

TEST_F(ChezResult, OperationCountPhaseRunsExactlyN) {
  ChezOptions o;
  o.ops_per_transaction = 7;  // 100 = 14 * 7 + 2: the last batch is shorter
  o.warmup = {{"operations", 0}};
  o.measure = {{"operations", 100}};
  const Session s = run(o);
  EXPECT_EQ(s.warmup_done["operations"], 0);
  EXPECT_TRUE(s.warmup_done["first_op_start_ns"].is_null());
  EXPECT_EQ(s.result["operations"], 100);
  EXPECT_EQ(s.result["transactions"], 15);
  EXPECT_EQ(s.result["straddled"], 0);
  EXPECT_EQ(s.result["t_end_ns"], s.result["t_finished_ns"]);
  EXPECT_EQ(s.measure_done["operations"], 100);
}

TEST_F(ChezResult, DurationPhaseCountsOnlyWhatRanInsideTheWindow) {
  ChezOptions o;
  o.tree_nodes = 2000;
  o.lane = "reader";
  o.warmup = {{"duration_ms", 50}};
  o.measure = {{"duration_ms", 300}};
  const Session s = run(o);
  const json& r = s.result;
  const std::uint64_t start = ns(r["t_start_ns"]);
  const std::uint64_t end = ns(r["t_end_ns"]);
  EXPECT_EQ(end - start, 300'000'000u);
  EXPECT_EQ(ns(r["window_ns"]), end - start);
  EXPECT_GE(ns(r["first_op_start_ns"]), start);
  EXPECT_LE(ns(r["last_op_end_ns"]), end);
  EXPECT_GE(ns(r["t_finished_ns"]), end);
  EXPECT_LE(u(r["straddled"]), 1u);
  EXPECT_LE(u(r["transactions_straddled"]), 1u);
  // One thread runs the operations one after another: their latencies fit in the window.
  std::uint64_t busy = 0;
  for (const char* type : kOpTypes) busy += ns(r["latency_ns"][type]["sum_ns"]);
  EXPECT_LE(busy, end - start);
  EXPECT_GT(u(r["operations"]), 0u);
  EXPECT_DOUBLE_EQ(r["throughput_ops_per_s"].get<double>(),
                   static_cast<double>(u(r["operations"])) * 1e9 / 300e6);
}

TEST_F(ChezResult, MixedRunThatNeverWritesIsALaneViolationNotAMixedResult) {
  ChezOptions o;
  o.lane = "mixed";
  o.read_ratio = 1.0;  // every batch reads
  const Session s = run(o);
  EXPECT_EQ(s.result["status"], "error");
  ASSERT_EQ(s.result["conditions"].size(), 1u);
  EXPECT_EQ(s.result["conditions"][0]["kind"], "lane_violation");
  EXPECT_EQ(s.exit.code, 0);  // the harness decides what the run is worth
}

TEST_F(ChezResult, TheStreamIsAFunctionOfSeedAndWorkerIndex) {
  ChezOptions o;
  o.lane = "mixed";
  o.read_ratio = 0.5;
  const Session a = run(o);
  const Session b = run(o);
  EXPECT_EQ(a.result["result_digest"], b.result["result_digest"]);
  EXPECT_EQ(a.result["operations_by_type"], b.result["operations_by_type"]);
  EXPECT_EQ(a.warmup_done["result_digest"], b.warmup_done["result_digest"]);
  o.worker_index = 1;
  const Session c = run(o);
  EXPECT_NE(a.result["result_digest"], c.result["result_digest"]);
  o.worker_index = 0;
  o.seed = 43;
  const Session d = run(o);
  EXPECT_NE(a.result["result_digest"], d.result["result_digest"]);
}

TEST_F(ChezResult, EveryCollectionGoesThroughTheHandlerAndIsCounted) {
  ChezOptions o;
  o.lane = "mixed";
  o.read_ratio = 0.5;
  o.tree_nodes = 1000;
  o.collect_trip_kib = 64;  // a collection request every 64 KiB allocated
  o.measure = {{"operations", 2000}};
  const Session s = run(o);
  for (const json* phase : {&s.warmup_done, &s.result}) {
    const json& gc = (*phase)["gc"];
    const std::uint64_t n = u(gc["collections"]);
    // The runtime's own count agrees: no collection bypassed the reporting handler.
    EXPECT_EQ(u(gc["runtime_collections"]), n);
    std::uint64_t by_generation = 0;
    for (const auto& [g, count] : gc["by_generation"].items()) by_generation += u(count);
    EXPECT_EQ(by_generation, n);
    EXPECT_EQ(checked_count(gc["pause_ns"]), n);
    EXPECT_EQ(ns(gc["pause_ns"]["sum_ns"]), ns(gc["pause_total_ns"]));
    EXPECT_LE(ns(gc["pause_max_ns"]), ns(gc["pause_total_ns"]));
    EXPECT_LE(ns(gc["pause_total_ns"]), ns((*phase)["t_finished_ns"]) - ns((*phase)["t_start_ns"]));
  }
  const json& gc = s.result["gc"];
  // 2000 operations of this size allocate far more than 64 KiB: collections must have happened.
  EXPECT_GT(u(s.result["allocated_bytes"]), 64u * 1024u * 10u);
  EXPECT_GT(u(gc["collections"]), 10u);
  EXPECT_GT(u(gc["by_generation"]["0"]), 0u);
  EXPECT_GT(u(gc["by_generation"]["1"]), 0u);  // every 4th request collects generation 1
  EXPECT_EQ(s.result["runtime"]["collect_trip_bytes"], 64 * 1024);
}

}  // namespace
}  // namespace jbench::test
