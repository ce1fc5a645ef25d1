// The tracing-free build (-DJBENCH_TRACING=OFF, docs/bridge.md): a second build tree of this
// source, configured without tracing, tests and benchmarks, where only the SQLite worker is
// built. Its worker must carry no USDT probe and no ABI note, link no bridge (neither as a
// library it needs nor as a static copy), count exactly what the traced worker counts on the
// same seeded runs, and be refused by `jbench run` for every traced mode.
//
// The tree is kept between runs (under this build's tests/run/), so only the first build costs;
// ccache, when the parent build found it, makes that one cheap too.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "run_support.h"
#include "second_tree.h"

namespace jbench::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kTree = JBENCH_TRACING_OFF_TREE;
const std::string kOffWorkerDir = kTree + "/bin";
const std::string kOffWorker = kOffWorkerDir + "/jbench-sqlite-worker";
const std::string kDefaultWorkerDir = JBENCH_DEFAULT_WORKER_DIR;

class TracingOff : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    build_error_ =
        new std::string(build_second_tree(JBENCH_CMAKE, JBENCH_TRACING_OFF_CONFIGURE_ARGS, kTree,
                                          {"jbench-sqlite-worker"}, "tracing-off"));
  }
  static void TearDownTestSuite() { delete build_error_; }
  void SetUp() override { ASSERT_TRUE(build_error_->empty()) << *build_error_; }
  static std::string* build_error_;
};
std::string* TracingOff::build_error_ = nullptr;

// `jbench run counted.yaml` with the workers of `worker_dir`; every run's measure-phase result.
std::map<std::string, json> results_of_run(const TempDir& dir, const std::string& worker_dir,
                                           const std::string& name) {
  RunInvocation inv;
  inv.matrix = "counted.yaml";
  inv.name = name;
  inv.args = {"--worker-dir", worker_dir};
  const auto r = run_jbench_run(dir, inv, unique_tag());
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, json> results;
  const std::string bundle = dir.path() + "/out/" + name;
  const json manifest = read_json(bundle + "/manifest.json");
  for (const auto& entry : manifest["runs"]) {
    const std::string id = entry["id"];
    results[id] = read_json(bundle + "/runs/" + id + "/raw/worker-0.result.json");
  }
  return results;
}

TEST_F(TracingOff, worker_carries_no_probe_and_no_abi_note) {
  const auto probes = run_process({JBENCH_BINARY, "probes", kOffWorker, "--json"});
  ASSERT_EQ(probes.exit_code, 1) << probes.out << probes.err;  // findings, not an unreadable file
  const json doc = json::parse(probes.out, nullptr, false);
  ASSERT_TRUE(doc.is_object()) << probes.out;
  EXPECT_TRUE(doc["abi_version"].is_null()) << doc["abi_version"];
  EXPECT_TRUE(doc["probes"].empty()) << doc["probes"];
  // The same with binutils, which knows nothing of jbench; the traced worker is the control.
  const auto notes = run_process({JBENCH_READELF, "-nW", kOffWorker});
  ASSERT_EQ(notes.exit_code, 0) << notes.err;
  EXPECT_EQ(notes.out.find("stapsdt"), std::string::npos) << notes.out;
  const auto traced =
      run_process({JBENCH_READELF, "-nW", kDefaultWorkerDir + "/jbench-sqlite-worker"});
  EXPECT_NE(traced.out.find("stapsdt"), std::string::npos) << traced.out;
}

TEST_F(TracingOff, worker_links_no_bridge_library_and_holds_no_copy_of_it) {
  const auto dynamic = run_process({JBENCH_READELF, "-dW", kOffWorker});
  ASSERT_EQ(dynamic.exit_code, 0) << dynamic.err;
  EXPECT_NE(dynamic.out.find("(NEEDED)"), std::string::npos) << dynamic.out;  // it does link some
  EXPECT_EQ(dynamic.out.find("libjbench_bridge"), std::string::npos) << dynamic.out;
  // A static copy would define the jb_* entry points; the traced worker does.
  const auto off_symbols = run_process({JBENCH_NM, "--defined-only", kOffWorker});
  ASSERT_EQ(off_symbols.exit_code, 0) << off_symbols.err;
  EXPECT_EQ(off_symbols.out.find(" jb_span_begin"), std::string::npos);
  EXPECT_EQ(off_symbols.out.find(" jb_init_from_env"), std::string::npos);
  const auto traced_symbols =
      run_process({JBENCH_NM, "--defined-only", kDefaultWorkerDir + "/jbench-sqlite-worker"});
  EXPECT_NE(traced_symbols.out.find(" jb_span_begin"), std::string::npos);
}

TEST_F(TracingOff, worker_counts_what_the_traced_worker_counts_on_the_same_runs) {
  TempDir dir;
  const auto off = results_of_run(dir, kOffWorkerDir, "off");
  const auto traced = results_of_run(dir, kDefaultWorkerDir, "traced");
  ASSERT_EQ(off.size(), 4u);  // the four cells of counted.yaml
  ASSERT_EQ(traced.size(), off.size());
  for (const auto& [id, result] : off) {
    ASSERT_TRUE(traced.contains(id)) << id;
    const json& other = traced.at(id);
    ASSERT_EQ(result["status"], "ok") << id << ": " << result["conditions"];
    EXPECT_EQ(result["operations"], 300) << id;
    for (const char* field :
         {"operations", "operations_by_type", "reads", "writes", "rows_returned", "transactions",
          "read_transactions", "write_transactions"}) {
      EXPECT_EQ(result[field], other[field]) << id << ": " << field;
    }
  }
}

TEST_F(TracingOff, every_traced_mode_is_refused_naming_the_option) {
  for (const char* mode : {"no-consumer", "light", "full"}) {
    TempDir dir;
    RunInvocation inv;
    inv.matrix = "traced.yaml";
    inv.traced = true;
    inv.args = {"--worker-dir", kOffWorkerDir, "--only", std::string("trace=baseline,") + mode};
    const auto r = run_jbench_run(dir, inv, unique_tag());
    EXPECT_EQ(r.exit_code, 2) << mode << ": " << r.err;
    EXPECT_NE(r.err.find("-DJBENCH_TRACING=OFF"), std::string::npos) << mode << ": " << r.err;
    EXPECT_FALSE(fs::exists(dir.path() + "/out/b")) << mode;
  }
}

TEST_F(TracingOff, worker_asked_to_trace_refuses_before_hello) {
  TempDir dir;
  ProcessOptions options;
  options.env = {{"JBENCH_BRIDGE_MODE", "light"},
                 {"JBENCH_BRIDGE_OUT", dir.path() + "/bridge.jsonl"}};
  const auto r = run_process({kOffWorker, "serve"}, options);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const json first = json::parse(r.out.substr(0, r.out.find('\n')), nullptr, false);
  EXPECT_EQ(first["type"], "error") << r.out;
  EXPECT_NE(first.value("message", "").find("-DJBENCH_TRACING=OFF"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir.path() + "/bridge.jsonl"));
}

}  // namespace
}  // namespace jbench::test
