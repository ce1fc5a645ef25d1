// Pieces of the SQLite worker that need no process: configure validation, the EXPLAIN QUERY PLAN
// classification, the operation stream's determinism and documented draw order, result-code
// names and the lane check.
#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>

#include "jbench/common/random.h"
#include "jbench/sqlite_workload/config.h"
#include "jbench/sqlite_workload/connection.h"
#include "jbench/sqlite_workload/dataset.h"
#include "jbench/sqlite_workload/op_stream.h"
#include "jbench/sqlite_workload/queries.h"
#include "jbench/sqlite_workload/results.h"
#include "jbench/sqlite_workload/sqlite_db.h"
#include "worker_fixture.h"

namespace jbench::sqlite_workload {
namespace {

using jbench::test::configure_message;
using jbench::test::TempDir;
using jbench::test::WorkerOptions;
using nlohmann::json;

// ---- configure ----------------------------------------------------------------------------

TEST(SqliteConfigure, AcceptsAValidMessage) {
  WorkerOptions o;
  o.lane = "mixed";
  o.read_ratio = 0.25;
  o.seed = 18446744073709551615ULL;
  o.warmup = {{"duration_ms", 0}};
  const auto parsed = parse_configure(configure_message("/data/x.db", o));
  ASSERT_TRUE(parsed.config) << ::testing::PrintToString(parsed.errors);
  const WorkerConfig& c = *parsed.config;
  EXPECT_EQ(c.seed, 18446744073709551615ULL);
  EXPECT_EQ(c.lane, Lane::mixed);
  EXPECT_EQ(c.params.read_ratio, 0.25);
  EXPECT_EQ(c.warmup.kind, PhaseSpec::Kind::duration);
  EXPECT_EQ(c.warmup.amount, 0u);
  EXPECT_EQ(c.measure.kind, PhaseSpec::Kind::operations);
  EXPECT_EQ(c.measure.amount, 40u);
}

TEST(SqliteConfigure, NonMixedLanesImplyTheirReadRatio) {
  WorkerOptions o;
  o.lane = "reader";
  EXPECT_EQ(parse_configure(configure_message("/x.db", o)).config->params.read_ratio, 1.0);
  o.lane = "writer";
  EXPECT_EQ(parse_configure(configure_message("/x.db", o)).config->params.read_ratio, 0.0);
}

// Each mutation must be refused with an error that names the offending key path.
TEST(SqliteConfigure, RejectsEachInvalidFieldByKeyPath) {
  const json valid = configure_message("/x.db", WorkerOptions{});
  const std::vector<std::pair<std::string, std::function<void(json&)>>> cases = {
      {"configure.extra", [](json& m) { m["extra"] = 1; }},
      {"configure.phases", [](json& m) { m.erase("phases"); }},
      {"seed", [](json& m) { m["seed"] = 42; }},
      {"seed", [](json& m) { m["seed"] = "042"; }},
      {"seed", [](json& m) { m["seed"] = "18446744073709551616"; }},
      {"worker_index", [](json& m) { m["worker_index"] = -1; }},
      {"worker_index", [](json& m) { m["worker_index"] = 1.5; }},
      {"lane", [](json& m) { m["lane"] = "both"; }},
      {"connection", [](json& m) { m["connection"] = "pooled"; }},
      {"db", [](json& m) { m["db"] = "relative.db"; }},
      {"params.synchronous", [](json& m) { m["params"]["synchronous"] = "FULL"; }},
      {"params.ops_per_transaction", [](json& m) { m["params"]["ops_per_transaction"] = 0; }},
      {"params.ops_per_transaction", [](json& m) { m["params"]["ops_per_transaction"] = 2.0; }},
      {"params.busy_timeout_ms", [](json& m) { m["params"]["busy_timeout_ms"] = true; }},
      {"params.page_cache_kib", [](json& m) { m["params"]["page_cache_kib"] = 0; }},
      {"params.read_ratio", [](json& m) { m["params"]["read_ratio"] = 0.5; }},  // writer lane
      {"params.read_ratio", [](json& m) { m["lane"] = "mixed"; }},              // missing
      {"params.read_ratio",
       [](json& m) {
         m["lane"] = "mixed";
         m["params"]["read_ratio"] = 1.5;
       }},
      {"params.color", [](json& m) { m["params"]["color"] = "red"; }},
      {"phases.measure", [](json& m) { m["phases"]["measure"] = json::object(); }},
      {"phases.measure",
       [](json& m) {
         m["phases"]["measure"] = {{"operations", 5}, {"duration_ms", 5}};
       }},
      {"phases.measure.operations",
       [](json& m) {
         m["phases"]["measure"] = {{"operations", 0}};
       }},
      {"phases.warmup.duration_ms",
       [](json& m) {
         m["phases"]["warmup"] = {{"duration_ms", 86'400'001}};
       }},
  };
  for (const auto& [path, mutate] : cases) {
    json m = valid;
    mutate(m);
    const auto parsed = parse_configure(m);
    EXPECT_FALSE(parsed.config) << path;
    ASSERT_FALSE(parsed.errors.empty()) << path;
    EXPECT_EQ(parsed.errors[0].rfind(path + ":", 0), 0u) << path << " vs " << parsed.errors[0];
  }
}

TEST(SqliteConfigure, ReportsEveryProblemNotJustTheFirst) {
  json m = configure_message("/x.db", WorkerOptions{});
  m["lane"] = "sideways";
  m["params"]["ops_per_transaction"] = 0;
  m["phases"]["measure"] = {{"operations", 0}};
  EXPECT_EQ(parse_configure(m).errors.size(), 3u);
}

// ---- EXPLAIN QUERY PLAN classification --------------------------------------------------

TEST(SqliteQueryPlan, ClassifiesSubqueriesFromPlanLines) {
  using L = std::vector<std::string>;
  EXPECT_EQ(classify_plan(L{"SEARCH items USING INTEGER PRIMARY KEY (rowid=?)"}),
            SubqueryClass::none);
  EXPECT_EQ(classify_plan(L{"SEARCH items USING INDEX items_grp (grp=?)", "SCALAR SUBQUERY 1",
                            "SCAN groups"}),
            SubqueryClass::uncorrelated);
  EXPECT_EQ(classify_plan(L{"SCAN items", "CORRELATED SCALAR SUBQUERY 2", "SCAN g"}),
            SubqueryClass::correlated);
  EXPECT_EQ(classify_plan(L{"SCALAR SUBQUERY 1", "CORRELATED SCALAR SUBQUERY 2"}),
            SubqueryClass::correlated);
  EXPECT_EQ(classify_plan(L{"SCAN SCALAR SUBQUERYX"}), SubqueryClass::none);
  EXPECT_EQ(classify_plan(L{"SCALAR SUBQUERYX 1"}), SubqueryClass::none);
}

// The worker's own statements, explained by the SQLite it links, on a real dataset.
TEST(SqliteQueryPlan, WorkerStatementsClassifyAsTheirPlansSay) {
  TempDir dir;
  const std::string db_path = dir.path() + "/d.db";
  ASSERT_TRUE(build_dataset({db_path, 500, 16, 3}).report);
  WorkerOptions o;
  auto config = *parse_configure(configure_message(db_path, o)).config;
  Connection conn;
  std::string error;
  ASSERT_EQ(Connection::open(config, conn, error), SQLITE_OK) << error;
  const auto catalog = classify_queries(conn.db(), error);
  ASSERT_TRUE(catalog) << error;
  const auto at = [&](Query q) { return (*catalog)[static_cast<std::size_t>(q)]; };
  EXPECT_EQ(at(Query::weight_by_id_range).subquery, SubqueryClass::correlated);
  EXPECT_EQ(at(Query::weight_by_id_range).type, OpType::scalar_correlated);
  EXPECT_EQ(at(Query::count_above_mean_weight).subquery, SubqueryClass::uncorrelated);
  EXPECT_EQ(at(Query::count_above_mean_weight).type, OpType::scalar_uncorrelated);
  EXPECT_EQ(at(Query::lookup_by_id).subquery, SubqueryClass::none);
  EXPECT_EQ(at(Query::lookup_by_id).type, OpType::point_lookup);
  EXPECT_EQ(at(Query::scan_grp_range).type, OpType::range_scan);
  EXPECT_EQ(at(Query::insert_item).type, OpType::insert);
  EXPECT_EQ(at(Query::update_val).type, OpType::update);
  EXPECT_FALSE(at(Query::weight_by_id_range).plan.empty());
}

// ---- operation stream -------------------------------------------------------------------

WorkerConfig stream_config(std::string lane, std::uint32_t index, std::optional<double> ratio) {
  WorkerOptions o;
  o.lane = std::move(lane);
  o.worker_index = index;
  o.read_ratio = ratio;
  return *parse_configure(configure_message("/x.db", o)).config;
}

bool same_ops(const TxnPlan& a, const TxnPlan& b) {
  if (a.writes != b.writes || a.ops.size() != b.ops.size()) return false;
  for (std::size_t i = 0; i < a.ops.size(); ++i) {
    if (a.ops[i].query != b.ops[i].query || a.ops[i].a != b.ops[i].a || a.ops[i].b != b.ops[i].b ||
        a.ops[i].payload != b.ops[i].payload) {
      return false;
    }
  }
  return true;
}

const DatasetShape kShape{2000, 24, 32};

TEST(SqliteOpStream, IsAFunctionOfSeedAndWorkerIndex) {
  OpStream a(stream_config("mixed", 0, 0.5), kShape);
  OpStream b(stream_config("mixed", 0, 0.5), kShape);
  OpStream other(stream_config("mixed", 1, 0.5), kShape);
  int differences = 0;
  for (int i = 0; i < 200; ++i) {
    const TxnPlan pa = a.next();
    ASSERT_TRUE(same_ops(pa, b.next())) << "transaction " << i;
    differences += same_ops(pa, other.next()) ? 0 : 1;
  }
  EXPECT_GT(differences, 150);
}

// Pins the draw order written in docs/worker-protocol.md, so another implementation (or a later
// version of this one) can reproduce the stream bit for bit.
TEST(SqliteOpStream, FollowsTheDocumentedDrawOrder) {
  const WorkerConfig config = stream_config("writer", 3, std::nullopt);
  OpStream stream(config, kShape);
  SplitMix64 rng(combine64(config.seed, 3));
  for (int t = 0; t < 20; ++t) {
    const TxnPlan plan = stream.next();
    ASSERT_TRUE(plan.writes);
    ASSERT_EQ(plan.ops.size(), config.params.ops_per_transaction);
    for (const Op& op : plan.ops) {
      if (rng.below(2) == 0) {
        ASSERT_EQ(op.query, Query::insert_item);
        ASSERT_EQ(op.a, static_cast<std::int64_t>(rng.below(kShape.groups)));
        ASSERT_EQ(op.b, static_cast<std::int64_t>(rng.below(1000)));
        std::vector<unsigned char> payload(kShape.row_bytes);
        fill_payload(rng, payload);
        ASSERT_EQ(op.payload, payload);
      } else {
        ASSERT_EQ(op.query, Query::update_val);
        ASSERT_EQ(op.a, static_cast<std::int64_t>(rng.below(1000)));
        ASSERT_EQ(op.b, 1 + static_cast<std::int64_t>(rng.below(kShape.rows)));
      }
    }
  }
}

TEST(SqliteOpStream, ReadRatioZeroNeverReadsAndOneAlwaysReads) {
  OpStream never(stream_config("mixed", 0, 0.0), kShape);
  OpStream always(stream_config("mixed", 0, 1.0), kShape);
  for (int i = 0; i < 500; ++i) {
    ASSERT_TRUE(never.next().writes);
    ASSERT_FALSE(always.next().writes);
  }
}

TEST(SqliteOpStream, ReadParametersStayInsideTheDataset) {
  OpStream reads(stream_config("reader", 0, std::nullopt), kShape);
  for (int i = 0; i < 500; ++i) {
    for (const Op& op : reads.next().ops) {
      switch (op.query) {
        case Query::lookup_by_id:
        case Query::weight_by_id_range:
          ASSERT_GE(op.a, 1);
          ASSERT_LE(op.a, static_cast<std::int64_t>(kShape.rows));
          break;
        case Query::scan_grp_range:
        case Query::count_above_mean_weight:
          ASSERT_GE(op.a, 0);
          ASSERT_LT(op.a, static_cast<std::int64_t>(kShape.groups));
          break;
        default:
          FAIL() << "a reader issued a write";
      }
    }
  }
}

// ---- result codes and lane conditions ------------------------------------------------------

TEST(SqliteResultCodes, NamesPrimaryExtendedAndUnknownCodes) {
  EXPECT_EQ(result_code_name(SQLITE_BUSY), "SQLITE_BUSY");
  EXPECT_EQ(result_code_name(SQLITE_BUSY_SNAPSHOT), "SQLITE_BUSY_SNAPSHOT");
  EXPECT_EQ(result_code_name(SQLITE_IOERR_FSYNC), "SQLITE_IOERR_FSYNC");
  EXPECT_EQ(result_code_name(SQLITE_IOERR | (200 << 8)), "SQLITE_IOERR_51210");
  EXPECT_EQ(result_code_name(250), "SQLITE_UNKNOWN_250");
}

TEST(SqliteLaneConditions, AWorkerMayDoOnlyWhatItsLaneAllowsAndMayBeStarved) {
  PhaseStats reads_only;
  reads_only.operations[static_cast<std::size_t>(OpType::point_lookup)] = 5;
  PhaseStats writes_only;
  writes_only.operations[static_cast<std::size_t>(OpType::insert)] = 5;
  PhaseStats both = reads_only;
  both.operations[static_cast<std::size_t>(OpType::update)] = 1;
  const auto kinds = [](const WorkerConfig& c, const PhaseStats& s) {
    std::vector<std::string> out;
    for (const auto& cond : conditions_of(c, s)) out.push_back(cond.kind);
    return out;
  };
  const std::vector<std::string> none;
  const std::vector<std::string> violation = {"lane_violation"};
  const auto mixed = stream_config("mixed", 0, 0.5);
  EXPECT_EQ(kinds(mixed, both), none);
  // One mixed worker's short window may hold one kind only: the run's aggregate is checked.
  EXPECT_EQ(kinds(mixed, reads_only), none);
  EXPECT_EQ(kinds(mixed, writes_only), none);
  EXPECT_EQ(kinds(mixed, PhaseStats{}), none);
  // A mixed stream that cannot mix is refused whatever it counted.
  EXPECT_EQ(kinds(stream_config("mixed", 0, 1.0), reads_only), violation);
  EXPECT_EQ(kinds(stream_config("mixed", 0, 0.0), writes_only), violation);
  const auto writer = stream_config("writer", 0, std::nullopt);
  EXPECT_EQ(kinds(writer, writes_only), none);
  EXPECT_EQ(kinds(writer, PhaseStats{}), none);  // starved by contention: data, not an error
  EXPECT_EQ(kinds(writer, both), violation);
  const auto reader = stream_config("reader", 0, std::nullopt);
  EXPECT_EQ(kinds(reader, reads_only), none);
  EXPECT_EQ(kinds(reader, both), violation);
  PhaseStats aborted = both;
  aborted.aborted = "100 transactions in a row failed";
  EXPECT_EQ(kinds(mixed, aborted), std::vector<std::string>{"phase_aborted"});
}

}  // namespace
}  // namespace jbench::sqlite_workload
