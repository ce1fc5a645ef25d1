// `jbench oracle` end to end, as a user runs it: a pass with every section leaves a bundle that
// validates and exits 0; a wrong result cache behind the line protocol exits 1 with its
// divergence reduced to a script; a broken ledger writer exits 1; bad input exits 2 with the
// place named; an edited record no longer validates; and a performance bundle whose matrix
// asks for an oracle record is proven by a passing one and unproven by a failing one.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "run_process.h"
#include "temp_dir.h"

namespace jbench {
namespace {

namespace fs = std::filesystem;
using test::run_process;

const std::string kFixtures = JBENCH_SOURCE_DIR + "/tests/fixtures/oracle";

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
    text.replace(at, from.size(), to);
    at += to.size();
  }
  return text;
}

// A fixture copied into `dir` with its placeholders (and the corpus path) made absolute.
std::string fixture_copy(const test::TempDir& dir, const std::string& name,
                         const std::vector<std::pair<std::string, std::string>>& fill) {
  std::string text = replaced(read(kFixtures + "/" + name), "../../../oracle/corpus",
                              JBENCH_SOURCE_DIR + "/oracle/corpus");
  for (const auto& [from, to] : fill) text = replaced(text, from, to);
  return dir.write(name, text);
}

test::ProcessResult jbench(const std::vector<std::string>& args, int timeout_s = 120) {
  std::vector<std::string> argv = {JBENCH_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  test::ProcessOptions options;
  options.timeout = std::chrono::seconds(timeout_s);
  return run_process(argv, options);
}

// The bundle the run names on its "bundle: " line (`jbench oracle` prints it on stdout, `jbench
// run` with its log on stderr).
std::string bundle_of(const test::ProcessResult& r) {
  std::smatch m;
  std::regex line("bundle: (\\S+)");
  std::string both = r.out + r.err;
  EXPECT_TRUE(std::regex_search(both, m, line)) << r.out << r.err;
  return m.size() > 1 ? m[1].str() : "";
}

nlohmann::json oracle_json(const std::string& bundle, const std::string& prefix = "") {
  return nlohmann::json::parse(read(bundle + "/" + prefix + "oracle.json"));
}

TEST(OracleCommand, a_pass_with_every_section_leaves_a_valid_bundle_and_exits_0) {
  test::TempDir out;
  auto r = jbench({"oracle", kFixtures + "/small.yaml", "--out", out.path()});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("oracle small-oracle: passed"), std::string::npos) << r.out;
  std::string bundle = bundle_of(r);
  auto v = jbench({"validate", bundle});
  EXPECT_EQ(v.exit_code, 0) << v.out;
  nlohmann::json d = oracle_json(bundle);
  EXPECT_TRUE(d["passed"].get<bool>());
  for (const char* s :
       {"corpus", "generator", "metamorphic", "plans", "ledgers", "faults", "crash_states"}) {
    EXPECT_EQ(d["sections"][s]["status"], "passed") << s;
  }
  EXPECT_EQ(d["sections"]["crash_states"]["modes"].size(), 2u);
  EXPECT_GT(d["sections"]["crash_states"]["states_explored"].get<int>(), 60);
  {  // a copy whose crash-state total is not its modes' sum does not validate
    test::TempDir forged;
    fs::copy(bundle, forged.path() + "/b", fs::copy_options::recursive);
    nlohmann::json f = d;
    f["sections"]["crash_states"]["states_explored"] =
        d["sections"]["crash_states"]["states_explored"].get<int>() + 1;
    std::ofstream(forged.path() + "/b/oracle.json") << f.dump(2) << "\n";
    auto v2 = jbench({"validate", forged.path() + "/b"});
    EXPECT_EQ(v2.exit_code, 1);
    EXPECT_NE(v2.out.find("oracle.section_mismatch"), std::string::npos) << v2.out;
  }
  EXPECT_EQ(d["sections"]["plans"]["queries"], 40);
  EXPECT_EQ(d["sections"]["plans"]["optimizations"].size(), 21u);
  EXPECT_GE(d["sections"]["generator"]["statements_compared"].get<int>(), 3000);
  EXPECT_EQ(d["sections"]["ledgers"]["storms"].size(), 2u);
  // Where each kill lands depends on timing (docs/oracle-ledger.md); that they land does not.
  for (const auto& storm : d["sections"]["ledgers"]["storms"]) {
    EXPECT_GT(storm["storm"]["kills_done"].get<int>(), 0);
    EXPECT_LE(storm["storm"]["kills_done"].get<int>(), 10);
  }
  EXPECT_EQ(d["target"], "sqlite (in process)");
  EXPECT_EQ(d["oracle"], "sqlite (in process, optimizer off)");
  EXPECT_EQ(read(bundle + "/matrix.yaml"), read(kFixtures + "/small.yaml"));
  // The readers of timings refuse it by what it is.
  for (const char* reader : {"report", "export"}) {
    auto refused = reader == std::string("report") ? jbench({reader, bundle})
                                                   : jbench({reader, bundle, "--format", "folded"});
    EXPECT_EQ(refused.exit_code, 2) << reader;
    EXPECT_NE(refused.err.find("is an oracle bundle"), std::string::npos) << refused.err;
  }
  // Nothing of the pass's scratch is left beside the bundle.
  for (const auto& e : fs::directory_iterator(out.path())) {
    EXPECT_EQ(e.path().filename().string().rfind(".scratch", 0), std::string::npos) << e.path();
  }
}

TEST(OracleCommand, a_wrong_cache_behind_the_protocol_exits_1_with_a_reduced_script) {
  test::TempDir dir;
  std::string matrix = fixture_copy(
      dir, "engine-template.yaml",
      {{"@ENGINE@", JBENCH_ORACLE_FIXTURE_ENGINE}, {"@ARGS@", "--cache, survives-reset"}});
  auto r = jbench({"oracle", matrix, "--out", dir.path() + "/bundles"});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("FAILED"), std::string::npos);
  std::string bundle = bundle_of(r);
  EXPECT_EQ(jbench({"validate", bundle}).exit_code, 0);  // a failed check, recorded soundly
  nlohmann::json d = oracle_json(bundle);
  EXPECT_FALSE(d["passed"].get<bool>());
  const auto& files = d["sections"]["corpus"]["files"];
  // The first file that caught it (workload_subquery.test, later in the corpus, does too).
  const nlohmann::json* caught = nullptr;
  for (const auto& f : files) {
    if (f["status"] == "failed" && caught == nullptr) caught = &f;
  }
  ASSERT_NE(caught, nullptr);
  const auto& div = (*caught)["divergences"][0];
  EXPECT_EQ(div["kind"], "divergence");
  EXPECT_NE(div["where"].get<std::string>().find("result_cache.test:"), std::string::npos);
  const auto& red = (*caught)["reduction"];
  ASSERT_TRUE(red["reproduced"].get<bool>());
  EXPECT_LE(red["statements"].get<int>(), 10);
  std::string script = read(bundle + "/" + red["file"].get<std::string>());
  EXPECT_NE(script.find("reduced reproduction"), std::string::npos) << script;
  // The script runs in the real sqlite3 shell.
  auto shell =
      run_process({"/bin/sh", "-c",
                   "sqlite3 -batch :memory: < " + bundle + "/" + red["file"].get<std::string>()});
  EXPECT_EQ(shell.exit_code, 0) << shell.err;
}

// A target whose hello declines prepared statements fails the pass, saying which check went
// untested, unless the matrix waives it by name; either way the record says so.
TEST(OracleCommand, a_declined_capability_is_a_finding_unless_the_matrix_waives_it) {
  test::TempDir dir;
  std::string matrix =
      fixture_copy(dir, "engine-template.yaml",
                   {{"@ENGINE@", JBENCH_ORACLE_FIXTURE_ENGINE}, {"@ARGS@", "--lie, no-prepared"}});
  auto r = jbench({"oracle", matrix, "--out", dir.path() + "/declined"});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("not exercised: an engine's hello says prepared: false"), std::string::npos)
      << r.err;
  nlohmann::json d = oracle_json(bundle_of(r));
  bool named = false;
  for (const auto& f : d["sections"]["corpus"]["files"]) {
    if (!f.contains("not_exercised")) continue;
    named = true;
    EXPECT_EQ(f["status"], "failed");
    EXPECT_EQ(f["not_exercised"][0]["capability"], "prepared");
    EXPECT_EQ(f["not_exercised"][0]["waived"], false);
  }
  EXPECT_TRUE(named) << d["sections"]["corpus"].dump();
  EXPECT_EQ(jbench({"validate", bundle_of(r)}).exit_code, 0);  // a failed check, recorded soundly

  std::ofstream(matrix, std::ios::app) << "waive: [prepared]\n";
  auto waived = jbench({"oracle", matrix, "--out", dir.path() + "/waived"});
  EXPECT_EQ(waived.exit_code, 0) << waived.out << waived.err;
  EXPECT_NE(waived.err.find("(waived by the matrix)"), std::string::npos) << waived.err;
  EXPECT_TRUE(oracle_json(bundle_of(waived))["passed"].get<bool>());
  // A waiver of something no target can decline is bad input.
  const std::string bad =
      dir.write("bad.yaml", replaced(read(matrix), "waive: [prepared]", "waive: [everything]"));
  auto refused = jbench({"oracle", bad, "--out", dir.path() + "/bad"});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("'everything' is no capability a target may decline"),
            std::string::npos)
      << refused.err;
}

// A target that names no columns leaves their names uncompared: a finding unless the matrix
// waives column_names, which then also stops comparing the names of a target that gives them.
TEST(OracleCommand, a_target_that_names_no_columns_fails_unless_the_matrix_waives_it) {
  test::TempDir dir;
  std::string matrix = fixture_copy(
      dir, "engine-template.yaml",
      {{"@ENGINE@", JBENCH_ORACLE_FIXTURE_ENGINE}, {"@ARGS@", "--lie, no-column-names"}});
  auto r = jbench({"oracle", matrix, "--out", dir.path() + "/declined"});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("the target named no columns in"), std::string::npos) << r.err;
  nlohmann::json d = oracle_json(bundle_of(r));
  std::size_t named = 0;
  for (const auto& f : d["sections"]["corpus"]["files"]) {
    if (!f.contains("not_exercised")) continue;
    ++named;
    EXPECT_EQ(f["status"], "failed");
    EXPECT_EQ(f["not_exercised"][0]["capability"], "column_names");
    EXPECT_TRUE(f["divergences"].empty()) << f.dump();
  }
  EXPECT_GT(named, 0u) << d["sections"]["corpus"].dump();
  EXPECT_EQ(jbench({"validate", bundle_of(r)}).exit_code, 0);

  std::ofstream(matrix, std::ios::app) << "waive: [column_names]\n";
  auto waived = jbench({"oracle", matrix, "--out", dir.path() + "/waived"});
  EXPECT_EQ(waived.exit_code, 0) << waived.out << waived.err;
  EXPECT_TRUE(oracle_json(bundle_of(waived))["passed"].get<bool>());
  EXPECT_EQ(jbench({"validate", bundle_of(waived)}).exit_code, 0);
}

// The matrix's deadline bounds the whole pass: 500,000 generated statements take far longer than
// its one second, and the pass stops there, interrupted and never passed, saying so.
TEST(OracleCommand, a_pass_past_its_deadline_is_interrupted_never_passed) {
  test::TempDir dir;
  const std::string matrix = dir.write("deadline.yaml", R"(version: 1
name: deadline
seed: 5
target: {engine: sqlite}
oracle: {engine: sqlite, optimizer: "off"}
generator: {statements: 500000}
metamorphic: {cases: 10}
deadline_s: 1
)");
  auto r = jbench({"oracle", matrix, "--out", dir.path() + "/b"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("INTERRUPTED"), std::string::npos) << r.out;
  const std::string bundle = bundle_of(r);
  nlohmann::json d = oracle_json(bundle);
  EXPECT_FALSE(d["passed"].get<bool>());
  EXPECT_TRUE(d["interrupted"].get<bool>());
  EXPECT_TRUE(d["deadline_reached"].get<bool>());
  EXPECT_EQ(d["deadline_s"], 1);
  EXPECT_EQ(d["sections"]["generator"]["status"], "interrupted");
  EXPECT_EQ(d["sections"]["metamorphic"]["status"], "interrupted");  // never begun
  EXPECT_LT(d["sections"]["generator"]["statements_compared"].get<std::size_t>(), 500000u);
  EXPECT_EQ(jbench({"validate", bundle}).exit_code, 0) << bundle;
}

TEST(OracleCommand, an_engine_that_crashes_is_a_finding_naming_the_statement) {
  test::TempDir dir;
  std::string matrix = fixture_copy(
      dir, "engine-template.yaml",
      {{"@ENGINE@", JBENCH_ORACLE_FIXTURE_ENGINE}, {"@ARGS@", "--fault, crash, --at, 4"}});
  auto r = jbench({"oracle", matrix, "--out", dir.path() + "/bundles"});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  nlohmann::json d = oracle_json(bundle_of(r));
  const auto& first = d["sections"]["corpus"]["files"][0];
  ASSERT_EQ(first["engine_failures"].size(), 1u);
  EXPECT_NE(first["engine_failures"][0]["what"].get<std::string>().find("signal 6"),
            std::string::npos);
  EXPECT_FALSE(first["engine_failures"][0]["sql"].get<std::string>().empty());
}

TEST(OracleCommand, ctrl_c_leaves_an_interrupted_bundle_that_says_what_ran) {
  test::TempDir dir;
  // A stream long enough to be cut: the signal comes as its comparison begins.
  std::string matrix = dir.write("long.yaml",
                                 "version: 1\nname: long\nseed: 1\ntarget: {engine: sqlite}\n"
                                 "oracle: {engine: sqlite}\ngenerator: {statements: 3000000}\n"
                                 "metamorphic: {cases: 10}\n");
  test::ProcessOptions options;
  options.timeout = std::chrono::seconds(60);
  options.signal_when = ": comparing 3000000 statements";
  options.signal = SIGINT;
  auto r = run_process({JBENCH_BINARY, "oracle", matrix, "--out", dir.path() + "/out"}, options);
  ASSERT_FALSE(r.signaled) << r.err;
  ASSERT_TRUE(r.signal_sent) << r.out << r.err;
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("INTERRUPTED"), std::string::npos) << r.out;
  std::string bundle = bundle_of(r);
  EXPECT_TRUE(bundle.ends_with(".interrupted")) << bundle;
  EXPECT_EQ(jbench({"validate", bundle}).exit_code, 0);
  nlohmann::json d = oracle_json(bundle);
  EXPECT_TRUE(d["interrupted"].get<bool>());
  EXPECT_FALSE(d["passed"].get<bool>());
  EXPECT_EQ(d["sections"]["generator"]["status"], "interrupted");
  // Cut short: fewer compared than generated (how many depends on when the signal came).
  EXPECT_LT(d["sections"]["generator"]["statements_compared"].get<int>(), 3000000);
  EXPECT_EQ(d["sections"]["metamorphic"]["status"], "interrupted");  // never begun
}

TEST(OracleCommand, a_writer_that_ledgers_before_commit_exits_1) {
  test::TempDir out;
  auto r = jbench({"oracle", kFixtures + "/broken-ledger.yaml", "--out", out.path()});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  nlohmann::json d = oracle_json(bundle_of(r));
  const auto& storm = d["sections"]["ledgers"]["storms"][0];
  EXPECT_EQ(storm["status"], "failed");
  EXPECT_GT(storm["database"]["lost"].get<int>(), 0);
}

TEST(OracleCommand, bad_input_exits_2_naming_the_place) {
  test::TempDir dir;
  auto corpus = jbench({"oracle", kFixtures + "/bad-corpus.yaml", "--out", dir.path()});
  EXPECT_EQ(corpus.exit_code, 2);
  EXPECT_NE(corpus.err.find("broken.test:6:8: error: unknown column type 'X'"), std::string::npos)
      << corpus.err;
  std::string typo = dir.write("typo.yaml",
                               "version: 1\nname: t\nseed: 1\ntarget: {engine: sqlite}\n"
                               "metamorphc: {cases: 3}\n");
  auto t = jbench({"oracle", typo, "--out", dir.path()});
  EXPECT_EQ(t.exit_code, 2);
  EXPECT_NE(t.err.find("typo.yaml:5:1"), std::string::npos) << t.err;
  EXPECT_NE(t.err.find("metamorphic"), std::string::npos) << t.err;  // the suggestion
  std::string nothing =
      dir.write("nothing.yaml", "version: 1\nname: t\nseed: 1\ntarget: {engine: sqlite}\n");
  auto n = jbench({"oracle", nothing, "--out", dir.path()});
  EXPECT_EQ(n.exit_code, 2);
  EXPECT_NE(n.err.find("checks nothing"), std::string::npos) << n.err;
  std::string missing = fixture_copy(dir, "engine-template.yaml",
                                     {{"@ENGINE@", "/nonexistent/engine"}, {"@ARGS@", "x"}});
  auto m = jbench({"oracle", missing, "--out", dir.path()});
  EXPECT_EQ(m.exit_code, 2);
  EXPECT_NE(m.err.find("/nonexistent/engine' is not an executable file"), std::string::npos)
      << m.err;
  // Nothing was written for any of them.
  for (const auto& e : fs::directory_iterator(dir.path())) {
    EXPECT_TRUE(e.is_regular_file()) << e.path();
  }
}

// The query-plan oracle through the protocol: an engine offering SQLite's switches passes; the
// same engine whose flattener loses the last row of a WITH query fails, every finding naming
// the flattener, with no second engine in the matrix; an engine offering none is a finding
// unless the matrix waives it; a record claiming a pass its findings deny does not validate.
TEST(OracleCommand, the_query_plan_oracle_catches_a_flattener_that_loses_rows) {
  test::TempDir dir;
  const auto matrix = [&](const std::string& name, const std::string& args) {
    return dir.write(name + ".yaml", replaced(replaced(read(kFixtures + "/plans-template.yaml"),
                                                       "@ENGINE@", JBENCH_ORACLE_FIXTURE_ENGINE),
                                              "@ARGS@", args));
  };
  auto right = jbench({"oracle", matrix("right", "--lie, none"), "--out", dir.path() + "/r"});
  ASSERT_EQ(right.exit_code, 0) << right.out << right.err;
  nlohmann::json ok = oracle_json(bundle_of(right));
  EXPECT_EQ(ok["sections"]["plans"]["queries"], 30);
  EXPECT_EQ(ok["sections"]["plans"]["runs"], 30 * 22);

  auto lying = jbench(
      {"oracle", matrix("lying", "--lie, flattener-loses-rows"), "--out", dir.path() + "/l"});
  ASSERT_EQ(lying.exit_code, 1) << lying.out << lying.err;
  const std::string bundle = bundle_of(lying);
  nlohmann::json d = oracle_json(bundle);
  const auto& plans = d["sections"]["plans"];
  EXPECT_EQ(plans["status"], "failed");
  ASSERT_FALSE(plans["findings"].empty()) << plans.dump();
  for (const auto& f : plans["findings"]) EXPECT_EQ(f["optimization"], "QueryFlattener");
  EXPECT_EQ(jbench({"validate", bundle}).exit_code, 0);  // a failed check, recorded soundly
  // The first finding reduced to a short script the sqlite3 shell runs.
  ASSERT_TRUE(plans["reduction"].is_object()) << plans.dump();
  EXPECT_TRUE(plans["reduction"]["reproduced"].get<bool>());
  EXPECT_LE(plans["reduction"]["statements"].get<int>(), 10);
  const std::string script = bundle + "/" + plans["reduction"]["file"].get<std::string>();
  EXPECT_NE(read(script).find(".testctrl optimizations 0x1"), std::string::npos) << read(script);
  const auto shell = run_process({"/bin/sh", "-c", "exec sqlite3 -batch :memory: < " + script});
  EXPECT_EQ(shell.exit_code, 0) << shell.err << read(script);
  d["sections"]["plans"]["status"] = "passed";
  d["passed"] = true;
  std::ofstream(bundle + "/oracle.json") << d.dump(2) << "\n";
  auto forged = jbench({"validate", bundle});
  EXPECT_EQ(forged.exit_code, 1);
  EXPECT_NE(forged.out.find("oracle.section_mismatch"), std::string::npos) << forged.out;

  const std::string none = matrix("none", "--cache, correct");
  auto declined = jbench({"oracle", none, "--out", dir.path() + "/n"});
  ASSERT_EQ(declined.exit_code, 1) << declined.out << declined.err;
  nlohmann::json n = oracle_json(bundle_of(declined));
  EXPECT_EQ(n["sections"]["plans"]["not_exercised"][0]["capability"], "optimizations");
  EXPECT_EQ(n["sections"]["plans"]["not_exercised"][0]["waived"], false);
  std::ofstream(none, std::ios::app) << "waive: [optimizations]\n";
  auto waived = jbench({"oracle", none, "--out", dir.path() + "/w"});
  EXPECT_EQ(waived.exit_code, 0) << waived.out << waived.err;
  nlohmann::json w = oracle_json(bundle_of(waived));
  EXPECT_EQ(w["sections"]["plans"]["not_exercised"][0]["waived"], true);
  EXPECT_EQ(jbench({"validate", bundle_of(waived)}).exit_code, 0);
}

TEST(OracleCommand, an_edited_record_no_longer_validates) {
  test::TempDir dir;
  std::string matrix = fixture_copy(
      dir, "engine-template.yaml",
      {{"@ENGINE@", JBENCH_ORACLE_FIXTURE_ENGINE}, {"@ARGS@", "--cache, ignores-parameters"}});
  auto r = jbench({"oracle", matrix, "--out", dir.path() + "/bundles"});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  std::string bundle = bundle_of(r);
  // Claim a pass the sections deny.
  nlohmann::json d = oracle_json(bundle);
  d["passed"] = true;
  std::ofstream(bundle + "/oracle.json") << d.dump(2) << "\n";
  auto v = jbench({"validate", bundle});
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_NE(v.out.find("sums.mismatch"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("oracle.verdict_mismatch"), std::string::npos) << v.out;
  // Claim a section passed whose divergences say otherwise.
  for (auto& f : d["sections"]["corpus"]["files"]) f["status"] = "passed";
  d["sections"]["corpus"]["status"] = "passed";
  std::ofstream(bundle + "/oracle.json") << d.dump(2) << "\n";
  auto s = jbench({"validate", bundle});
  EXPECT_EQ(s.exit_code, 1);
  EXPECT_NE(s.out.find("oracle.section_mismatch"), std::string::npos) << s.out;
}

TEST(OracleCommand,
     a_performance_bundle_is_proven_by_a_passing_record_and_unproven_by_a_failing_one) {
  test::TempDir dir;
  // Passing: the corpus-only pass.
  std::string good =
      fixture_copy(dir, "run-with-oracle.yaml", {{"@ORACLE@", kFixtures + "/corpus-only.yaml"}});
  auto r = jbench({"run", good, "--out", dir.path() + "/good"}, 300);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("oracle: passed"), std::string::npos) << r.err;
  std::string bundle = bundle_of(r);
  EXPECT_TRUE(fs::is_regular_file(bundle + "/oracle/oracle.json"));
  auto v = jbench({"validate", bundle, "--json"});
  EXPECT_EQ(v.exit_code, 0) << v.out;
  EXPECT_TRUE(nlohmann::json::parse(v.out)["proven"].get<bool>());

  // Failing: a wrong cache as the target of the pass the matrix names.
  std::string bad_oracle = fixture_copy(
      dir, "engine-template.yaml",
      {{"@ENGINE@", JBENCH_ORACLE_FIXTURE_ENGINE}, {"@ARGS@", "--cache, multi-row-last"}});
  std::string bad =
      dir.write("run-bad.yaml", replaced(read(good), kFixtures + "/corpus-only.yaml", bad_oracle));
  auto b = jbench({"run", bad, "--out", dir.path() + "/bad"}, 300);
  EXPECT_NE(b.err.find("oracle: FAILED"), std::string::npos) << b.err;
  std::string bad_bundle = bundle_of(b);
  auto bv = jbench({"validate", bad_bundle});
  EXPECT_EQ(bv.exit_code, 1) << bv.out;
  EXPECT_NE(bv.out.find("oracle.unproven"), std::string::npos) << bv.out;
  EXPECT_NE(bv.out.find("UNPROVEN: "), std::string::npos) << bv.out;
  EXPECT_EQ(bv.out.find("INVALID"), std::string::npos) << bv.out;  // sound, but unproven

  // Missing: the record taken out (and out of SHA256SUMS, so only its absence is found).
  fs::remove_all(bundle + "/oracle");
  std::string sums = read(bundle + "/SHA256SUMS"), kept;
  std::istringstream lines(sums);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("  oracle/") == std::string::npos) kept += line + "\n";
  }
  std::ofstream(bundle + "/SHA256SUMS") << kept;
  auto mv = jbench({"validate", bundle});
  EXPECT_EQ(mv.exit_code, 1) << mv.out;
  EXPECT_NE(mv.out.find("has none"), std::string::npos) << mv.out;
}

}  // namespace
}  // namespace jbench
