// The fsync plant (workloads/sqlite/include/jbench/sqlite_workload/plant.h): configure accepts
// only a plain file name; a real worker on a real database appends exactly one 512-byte record
// per write transaction that reached the plant and reports what it timed, and nothing at all
// when the plant is off. Also: the attribution matrices differ only in the plant.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "jbench/matrix/load.h"
#include "jbench/plan/plan.h"
#include "jbench/plan/plan_output.h"
#include "jbench/schema/json_schema.h"
#include "jbench/sqlite_workload/config.h"
#include "worker_fixture.h"

namespace jbench::test {
namespace {

constexpr std::uint64_t kRecordBytes = 512;
constexpr std::int64_t kRows = 500;

std::uint64_t u(const json& v) { return v.get<std::uint64_t>(); }

std::uint64_t file_bytes(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw std::runtime_error("stat " + path + " failed");
  return static_cast<std::uint64_t>(st.st_size);
}

void expect_valid_result(const json& r) {
  const auto schema = JsonSchema::builtin("worker-result.schema.json");
  ASSERT_TRUE(schema) << schema.error().message;
  for (const auto& v : schema->validate(r)) ADD_FAILURE() << v.pointer << ": " << v.message;
  expect_consistent_result(r);
  EXPECT_EQ(r["status"], "ok") << r["conditions"].dump();
}

// What every planted result must say of itself, whatever its lane: its file, and times that
// fit inside each other and inside the measure phase.
void expect_plausible_plant(const json& r, const std::string& file) {
  ASSERT_TRUE(r.contains("plant")) << r.dump();
  const json& p = r["plant"];
  EXPECT_EQ(p["kind"], "fsync");
  EXPECT_EQ(p["file"], file);
  const std::uint64_t fdatasync = ns(p["fdatasync_ns"]), write = ns(p["write_ns"]);
  EXPECT_LE(fdatasync, write);
  // The measure phase runs from t_start_ns to t_finished_ns, one call at a time.
  EXPECT_LE(write, ns(r["t_finished_ns"]) - ns(r["t_start_ns"]));
  if (u(p["calls"]) > 0) {
    EXPECT_GT(fdatasync, 0u);
  }
}

// ---- configure ----------------------------------------------------------------------------

TEST(SqlitePlantConfigure, AcceptsAPlainFileNameAndDefaultsToNone) {
  WorkerOptions o;
  const auto none = sqlite_workload::parse_configure(configure_message("/d/x.db", o));
  ASSERT_TRUE(none.config) << ::testing::PrintToString(none.errors);
  EXPECT_FALSE(none.config->params.plant_fsync_file);
  const std::vector<std::string> good = {"plant.log", "A-z_0.9", std::string(100, 'p'), "...",
                                         ".a"};
  for (const auto& name : good) {
    o.plant_fsync_file = name;
    const auto parsed = sqlite_workload::parse_configure(configure_message("/d/x.db", o));
    ASSERT_TRUE(parsed.config) << name << ": " << ::testing::PrintToString(parsed.errors);
    EXPECT_EQ(parsed.config->params.plant_fsync_file, name);
  }
}

TEST(SqlitePlantConfigure, RefusesANameThatIsNotPlainAtItsKeyPath) {
  const std::vector<json> bad = {"a/b",  "..",      ".", "",      std::string(101, 'p'),     "a b",
                                 "/abs", "plant\n", 5,   nullptr, json::array({"plant.log"})};
  for (const auto& value : bad) {
    json m = configure_message("/d/x.db", WorkerOptions{});
    m["params"]["plant_fsync_file"] = value;
    const auto parsed = sqlite_workload::parse_configure(m);
    EXPECT_FALSE(parsed.config) << value.dump();
    ASSERT_EQ(parsed.errors.size(), 1u) << value.dump();
    EXPECT_EQ(parsed.errors[0].rfind("params.plant_fsync_file: ", 0), 0u) << parsed.errors[0];
  }
}

// ---- a real worker -------------------------------------------------------------------------

struct PlantCase {
  std::string lane;
  std::string connection;
};
void PrintTo(const PlantCase& c, std::ostream* os) { *os << c.lane << "/" << c.connection; }

class SqlitePlantRun : public ::testing::TestWithParam<PlantCase> {};

// An operation-count phase with one worker: every write transaction commits, so the plant fired
// exactly once per write transaction of each phase, and the result counts the measure phase's.
TEST_P(SqlitePlantRun, AppendsOneRecordPerWriteTransactionAndCountsTheMeasurePhase) {
  TempDir dir;
  const std::string db = dir.path() + "/d.db";
  build_dataset(db, kRows, 32, 3);
  WorkerOptions o;
  o.lane = GetParam().lane;
  o.connection = GetParam().connection;
  if (o.lane == "mixed") o.read_ratio = 0.5;
  o.ops_per_transaction = 3;
  o.plant_fsync_file = "plant.log";
  o.warmup = {{"operations", 9}};
  o.measure = {{"operations", 60}};
  const Transcript t = run_to_completion(configure_message(db, o));
  EXPECT_EQ(t.exit.code, 0);
  const json& r = t.result;
  expect_valid_result(r);
  const std::string file = dir.path() + "/plant.log";
  expect_plausible_plant(r, file);

  const std::uint64_t calls = u(r["plant"]["calls"]);
  EXPECT_EQ(calls, u(r["write_transactions"]));
  EXPECT_EQ(u(r["transactions_failed"]) + u(r["transactions_straddled"]), 0u);
  if (o.lane == "reader") {
    EXPECT_EQ(calls, 0u);
  } else if (o.lane == "writer") {
    EXPECT_EQ(calls, 20u);  // 60 operations, 3 to a transaction
  } else {
    EXPECT_GT(calls, 0u);
  }
  // Warmup fired too, into the same file, but is not in the result.
  EXPECT_EQ(file_bytes(file), (u(t.warmup_done["write_transactions"]) + calls) * kRecordBytes);
}

INSTANTIATE_TEST_SUITE_P(Lanes, SqlitePlantRun,
                         ::testing::Values(PlantCase{"writer", "persistent"},
                                           PlantCase{"writer", "cold"},
                                           PlantCase{"mixed", "persistent"},
                                           PlantCase{"reader", "persistent"}));

// Without warmup the file holds the measure phase's records and nothing else.
TEST(SqlitePlant, TheFileHoldsExactlyCallsRecords) {
  TempDir dir;
  const std::string db = dir.path() + "/d.db";
  build_dataset(db, kRows, 32, 3);
  WorkerOptions o;
  o.ops_per_transaction = 1;
  o.plant_fsync_file = "plant.log";
  o.warmup = {{"operations", 0}};
  o.measure = {{"operations", 50}};
  const Transcript t = run_to_completion(configure_message(db, o));
  const json& r = t.result;
  expect_valid_result(r);
  expect_plausible_plant(r, dir.path() + "/plant.log");
  EXPECT_EQ(u(r["plant"]["calls"]), 50u);
  EXPECT_EQ(file_bytes(dir.path() + "/plant.log"), 50 * kRecordBytes);
  EXPECT_LE(ns(r["plant"]["fdatasync_ns"]), ns(r["window_ns"]));
}

// A duration phase: the transaction in flight at the deadline still fired inside the phase and
// is counted, unless it ran no statement (then it wrote nothing and planted nothing). How many
// transactions commit before the deadline is the machine's business (one fdatasync of a loaded
// disk can outlast the phase), so the assertions hold whichever side of it each one ends.
TEST(SqlitePlant, ADurationPhaseCountsTheStraddlingTransactionsFire) {
  TempDir dir;
  const std::string db = dir.path() + "/d.db";
  build_dataset(db, kRows, 32, 3);
  WorkerOptions o;
  o.ops_per_transaction = 4;
  o.plant_fsync_file = "plant.log";
  o.warmup = {{"duration_ms", 0}};
  o.measure = {{"duration_ms", 300}};
  const Transcript t = run_to_completion(configure_message(db, o));
  const json& r = t.result;
  expect_valid_result(r);
  expect_plausible_plant(r, dir.path() + "/plant.log");
  const std::uint64_t calls = u(r["plant"]["calls"]);
  EXPECT_GT(calls, 0u);  // the first transaction's statements start at the phase's start
  EXPECT_GE(calls, u(r["write_transactions"]));
  EXPECT_LE(calls, u(r["write_transactions"]) + u(r["transactions_straddled"]));
  EXPECT_EQ(file_bytes(dir.path() + "/plant.log"),
            (u(t.warmup_done["write_transactions"]) + calls) * kRecordBytes);
}

TEST(SqlitePlant, OffMeansNoPlantKeyAndNoFile) {
  TempDir dir;
  const std::string db = dir.path() + "/d.db";
  build_dataset(db, kRows, 32, 3);
  const auto before = std::distance(std::filesystem::directory_iterator(dir.path()), {});
  const Transcript t = run_to_completion(configure_message(db, WorkerOptions{}));
  expect_valid_result(t.result);
  EXPECT_FALSE(t.result.contains("plant")) << t.result.dump();
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/plant.log"));
  // Nothing else appeared either: the worker's only files are SQLite's, gone after its close.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), before);
}

// A plant file that cannot be opened fails configure, naming the file, as a bad database does.
TEST(SqlitePlant, AFileThatCannotBeOpenedFailsConfigure) {
  TempDir dir;
  const std::string db = dir.path() + "/d.db";
  build_dataset(db, kRows, 32, 3);
  std::filesystem::create_directory(dir.path() + "/plant.log");  // open(O_WRONLY): EISDIR
  WorkerOptions o;
  o.plant_fsync_file = "plant.log";
  Worker w;
  w.send(configure_message(db, o));
  const json e = w.expect("error");
  const std::string message = e["message"].get<std::string>();
  EXPECT_NE(message.find("cannot open the plant file " + dir.path() + "/plant.log"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("Is a directory"), std::string::npos) << message;
  EXPECT_EQ(w.expect_exit().code, 2);
}

// ---- the attribution matrices ---------------------------------------------------------------

// Both files as plans, with what may differ removed: the file, its hash, name and description,
// and the plant. Everything else -- workload, phases, limits, axes, seeds, order -- must match,
// so the control measures the same thing without the plant.
json comparable_plan(const std::string& file) {
  const auto loaded = load_matrix_file(std::string(JBENCH_SOURCE_DIR) + "/matrices/" + file);
  if (!loaded.matrix) throw std::runtime_error(format_diagnostics(loaded.diagnostics));
  json plan = json::parse(plan_to_json(make_plan(*loaded.matrix, {}, HostResources{2, 4096})));
  json& m = plan["matrix"];
  for (const char* key : {"file", "sha256", "name", "description"}) m.erase(key);
  m["workload"]["params"].erase("plant_fsync_file");
  json& defaulted = m["workload"]["defaulted"];
  defaulted.erase(std::remove(defaulted.begin(), defaulted.end(), "plant_fsync_file"),
                  defaulted.end());
  return plan;
}

TEST(AttributionMatrices, DifferOnlyInThePlant) {
  const json planted = comparable_plan("attribution.yaml");
  const json control = comparable_plan("attribution-unplanted.yaml");
  EXPECT_EQ(planted, control) << json::diff(planted, control).dump(1);

  const auto loaded =
      load_matrix_file(std::string(JBENCH_SOURCE_DIR) + "/matrices/attribution.yaml");
  ASSERT_TRUE(loaded.matrix);
  json params = json::parse(plan_to_json(
      make_plan(*loaded.matrix, {}, HostResources{2, 4096})))["matrix"]["workload"]["params"];
  EXPECT_EQ(params["plant_fsync_file"], "plant.log");
  EXPECT_EQ(params["synchronous"], "normal");
  EXPECT_EQ(params["ops_per_transaction"], 1);
}

}  // namespace
}  // namespace jbench::test
