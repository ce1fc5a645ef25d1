// `jbench propose` end to end, as a user runs it: real oracle passes, real sessions of the SQLite
// worker (a few seconds each), evidence bundles validated by `jbench validate`, then edited the
// way someone would to change a verdict after the fact.
//
// The proposals are in tests/fixtures/propose/: a planted speed-up (the baseline busy-waits
// 200 us per statement) declared with a counter it moves (CPU per operation) and with one it does
// not (SQLite's VM steps per operation, the same statements on both sides); a candidate identical
// to the baseline; a candidate whose engine fails the oracle corpus.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bundle_sums.h"
#include "jbench/common/sha256.h"
#include "run_process.h"
#include "temp_dir.h"

namespace jbench {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

std::string fixture(const std::string& name) {
  return std::string(JBENCH_SOURCE_DIR) + "/tests/fixtures/propose/" + name;
}

// With `interrupt_when`: Ctrl-C once jbench has printed that text.
test::ProcessResult jbench(const std::vector<std::string>& args,
                           const std::string& interrupt_when = {}) {
  std::vector<std::string> argv = {JBENCH_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  test::ProcessOptions o;
  o.timeout = std::chrono::seconds(290);  // a safety net: a counted proposal takes 20-45 s
  if (!interrupt_when.empty()) {
    o.signal_when = interrupt_when;
    o.signal = SIGINT;
  }
  return test::run_process(argv, o);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void spit(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// The one bundle `jbench propose --out dir` left.
std::string only_bundle(const std::string& dir) {
  std::vector<std::string> found;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.is_directory() && !e.path().filename().string().starts_with(".")) {
      found.push_back(e.path().string());
    }
  }
  EXPECT_EQ(found.size(), 1u) << dir;
  return found.empty() ? dir : found[0];
}

Json record_of(const std::string& bundle) { return Json::parse(slurp(bundle + "/proposal.json")); }

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// A run's outcome and its bundle, kept for the suite's tests.
struct Proposed {
  test::ProcessResult result;
  std::string bundle;
  Json record;
};

Proposed propose(const test::TempDir& out, const std::string& proposal) {
  Proposed p;
  p.result = jbench({"propose", fixture(proposal), "--out", out.path()});
  p.bundle = only_bundle(out.path());
  p.record = record_of(p.bundle);
  return p;
}

TEST(ProposeCli, a_candidate_that_fails_its_oracle_is_rejected_and_never_timed) {
  test::TempDir out;
  const Proposed p = propose(out, "wrong-candidate.yaml");
  EXPECT_EQ(p.result.exit_code, 1) << p.result.err;
  EXPECT_EQ(p.record["verdict"], "rejected");
  EXPECT_FALSE(p.record["oracle"]["candidate"]["passed"].get<bool>());
  // The oracle's finding is the reason: the corpus file that caught the wrong cache.
  const std::string reason = p.record["decision"]["reasons"][0].get<std::string>();
  EXPECT_NE(reason.find("result_cache.test"), std::string::npos) << reason;
  EXPECT_NE(p.result.out.find("never timed"), std::string::npos) << p.result.out;
  // No timing at all: no session, no comparison, and the baseline's pass not even begun.
  EXPECT_TRUE(p.record["sessions"].empty());
  EXPECT_TRUE(p.record["comparison"].is_null());
  EXPECT_FALSE(p.record["oracle"]["baseline"]["ran"].get<bool>());
  EXPECT_FALSE(fs::exists(p.bundle + "/candidate"));
  // The rejection is a first-class result: a valid bundle with the oracle's own bundle inside.
  const auto v = jbench({"validate", p.bundle});
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  EXPECT_TRUE(fs::exists(p.bundle + "/oracle/candidate/oracle.json"));
}

TEST(ProposeCli, editing_the_decision_rule_after_the_run_invalidates_the_evidence) {
  test::TempDir out;
  const Proposed p = propose(out, "wrong-candidate.yaml");
  ASSERT_EQ(jbench({"validate", p.bundle}).exit_code, 0);
  const std::string yaml = p.bundle + "/proposal.yaml";
  spit(yaml, replaced(slurp(yaml), "improvement_at_least: 0.10", "improvement_at_least: 0.01"));
  auto v = jbench({"validate", p.bundle});
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_NE(v.out.find("proposal.rule_mismatch"), std::string::npos) << v.out;
  // Checksums made to agree do not help: the hash recorded before the first run still differs.
  test::rewrite_sums(p.bundle);
  v = jbench({"validate", p.bundle});
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_NE(v.out.find("proposal.rule_mismatch"), std::string::npos) << v.out;
  EXPECT_EQ(v.out.find("sums.mismatch"), std::string::npos) << v.out;
}

TEST(ProposeCli, a_planted_speed_up_that_moves_its_counter_is_accepted) {
  test::TempDir out;
  const Proposed p = propose(out, "planted-speedup.yaml");
  ASSERT_EQ(p.result.exit_code, 0) << p.result.out << p.result.err;
  EXPECT_EQ(p.record["verdict"], "accepted");
  EXPECT_FALSE(p.record["decision"]["unexplained"].get<bool>());
  const auto v = jbench({"validate", p.bundle});
  EXPECT_EQ(v.exit_code, 0) << v.out;
  // Six sessions a side, in pairs of one of each, each carrying the rule's hash.
  const Json& sessions = p.record["sessions"];
  ASSERT_EQ(sessions.size(), 12u);
  for (std::size_t i = 0; i < sessions.size(); i += 2) {
    EXPECT_NE(sessions[i]["side"], sessions[i + 1]["side"]) << "pair " << i / 2;
  }
  for (const auto& s : sessions) {
    EXPECT_TRUE(s["complete"].get<bool>()) << s.dump();
    const Json manifest =
        Json::parse(slurp(p.bundle + "/" + s["bundle"].get<std::string>() + "/manifest.json"));
    bool carries = false;
    for (const auto& o : manifest["matrix"]["overrides"]) {
      carries |= o["key"] == "proposal.rule_sha256" && o["value"] == p.record["rule_sha256"];
    }
    EXPECT_TRUE(carries) << s["bundle"];
  }
  // The settings each side ran with are what the comparison lists as their difference.
  const Json comparison = Json::parse(slurp(p.bundle + "/comparison.json"));
  ASSERT_FALSE(comparison["setting_differences"].empty()) << comparison.dump();
  EXPECT_NE(comparison["setting_differences"][0].get<std::string>().find("plant_delay_ns"),
            std::string::npos);
  EXPECT_TRUE(fs::exists(p.bundle + "/report.txt"));
}

// Decided by counting (docs/trace-modes.md, "counted"): the cache's saving in instructions is the
// same in every pair of runs of one seed, so the verdict is decisive either way — accepted when
// the rule asks for 1%, rejected (the interval excludes it) when it asks for 5%.
TEST(ProposeCli, a_counted_primary_decides_pair_by_pair_either_way) {
  test::TempDir out1, out5;
  const Proposed p = propose(out1, "counted-subquery-cache.yaml");
  ASSERT_EQ(p.result.exit_code, 0) << p.result.out << p.result.err;
  EXPECT_EQ(p.record["verdict"], "accepted") << p.result.out;
  EXPECT_EQ(jbench({"validate", p.bundle}).exit_code, 0);
  const Json comparison = Json::parse(slurp(p.bundle + "/comparison.json"));
  bool seen = false;
  for (const auto& row : comparison["rows"]) {
    if (row["metric"] != "instructions_per_op") continue;
    seen = true;
    EXPECT_TRUE(row["paired"].get<bool>()) << row.dump();
    EXPECT_EQ(row["units_base"], 4) << row.dump();  // a pair per session
    EXPECT_LT(row["ratio"].get<double>(), 0.99) << row.dump();
    EXPECT_LT(row["ci_high"].get<double>(), 0.99) << row.dump();
  }
  EXPECT_TRUE(seen) << comparison.dump();
  EXPECT_NE(slurp(p.bundle + "/report.txt").find("4 pairs of runs of one seed"), std::string::npos);

  const Proposed strict = propose(out5, "counted-subquery-cache-5pct.yaml");
  EXPECT_EQ(strict.result.exit_code, 1) << strict.result.out << strict.result.err;
  EXPECT_EQ(strict.record["verdict"], "rejected");
}

TEST(ProposeCli, a_speed_up_that_does_not_move_its_declared_counter_is_flagged_unexplained) {
  test::TempDir out;
  const Proposed p = propose(out, "unexplained-speedup.yaml");
  EXPECT_EQ(p.result.exit_code, 4) << p.result.out << p.result.err;
  EXPECT_EQ(p.record["verdict"], "inconclusive");
  EXPECT_TRUE(p.record["decision"]["unexplained"].get<bool>());
  EXPECT_NE(p.result.out.find("unexplained"), std::string::npos) << p.result.out;
  // The primary did clear: it is the counter that is missing.
  const Json& cell = p.record["decision"]["cells"][0];
  EXPECT_EQ(cell["primary"], "clears");
  EXPECT_EQ(cell["counters"]["vm_steps_per_op"], "not_moved");
}

// One A/A run shared by the tests below: it is the slowest fixture, and each test only reads or
// edits its own copy of the bundle.
class ProposeSameAsBaseline : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new test::TempDir();
    run_ = new Proposed(propose(*dir_, "same-as-baseline.yaml"));
  }
  static void TearDownTestSuite() {
    delete run_;
    delete dir_;
  }
  // A copy of the bundle to edit.
  std::string copy() const {
    const std::string to = scratch_.path() + "/copy";
    fs::copy(run_->bundle, to, fs::copy_options::recursive);
    return to;
  }
  static test::TempDir* dir_;
  static Proposed* run_;
  test::TempDir scratch_;
};
test::TempDir* ProposeSameAsBaseline::dir_ = nullptr;
Proposed* ProposeSameAsBaseline::run_ = nullptr;

TEST_F(ProposeSameAsBaseline, an_identical_candidate_is_never_accepted) {
  const std::string verdict = run_->record["verdict"];
  EXPECT_NE(verdict, "accepted");
  EXPECT_TRUE(run_->result.exit_code == 1 || run_->result.exit_code == 4)
      << run_->result.exit_code << run_->result.err;
  EXPECT_EQ(jbench({"validate", run_->bundle}).exit_code, 0);
}

TEST_F(ProposeSameAsBaseline, a_verdict_edited_to_accepted_is_caught_by_rederiving_it) {
  const std::string b = copy();
  Json record = record_of(b);
  record["verdict"] = "accepted";
  record["decision"]["verdict"] = "accepted";
  spit(b + "/proposal.json", record.dump(2) + "\n");
  test::rewrite_sums(b);
  const auto v = jbench({"validate", b});
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_NE(v.out.find("proposal.verdict_mismatch"), std::string::npos) << v.out;
}

TEST_F(ProposeSameAsBaseline, a_rule_rewritten_with_its_hash_is_caught_by_the_sessions) {
  const std::string b = copy();
  const std::string yaml = replaced(slurp(b + "/proposal.yaml"), "improvement_at_least: 0.03",
                                    "improvement_at_least: 0");
  spit(b + "/proposal.yaml", yaml);
  Json record = record_of(b);
  // The forger recomputes the hashes the record holds, as validate would compute them.
  record["proposal"]["sha256"] = sha256_hex(yaml);
  const auto v0 = jbench({"validate", b});
  const auto at = v0.out.find("hashes to ");
  ASSERT_NE(at, std::string::npos) << v0.out;
  record["rule_sha256"] = v0.out.substr(at + 10, 64);
  spit(b + "/proposal.json", record.dump(2) + "\n");
  test::rewrite_sums(b);
  const auto v = jbench({"validate", b});
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_EQ(v.out.find("proposal.rule_mismatch"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("proposal.session_rule_mismatch"), std::string::npos) << v.out;
}

TEST(ProposeCli, bad_input_is_refused_with_its_location_before_anything_runs) {
  test::TempDir out;
  const std::string bad = out.write(
      "bad.yaml", replaced(slurp(fixture("planted-speedup.yaml")), "matrix: tiny.yaml\n",
                           "matrix: " + fixture("tiny.yaml") + "\nonly: {lane: [writer]}\n"));
  auto r = jbench({"propose", bad, "--out", out.path() + "/bundles"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("bad.yaml:8:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("'writer' is not a value of the axis 'lane'"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out.path() + "/bundles"));

  std::string typo_text =
      replaced(slurp(fixture("planted-speedup.yaml")), "plant_delay_ns: 0", "plant_delay: 0");
  typo_text = replaced(typo_text, "matrix: tiny.yaml", "matrix: " + fixture("tiny.yaml"));
  const std::string typo = out.write("typo.yaml", typo_text);
  r = jbench({"propose", typo, "--out", out.path() + "/bundles"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("typo.yaml:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("not a parameter of the sqlite workload"), std::string::npos) << r.err;

  // Too few sessions for the rank test to reach the rule's fdr: refused, not run for nothing.
  std::string few = replaced(slurp(fixture("planted-speedup.yaml")), "sessions: 6", "sessions: 3");
  few = replaced(few, "matrix: tiny.yaml", "matrix: " + fixture("tiny.yaml"));
  r = jbench({"propose", out.write("few.yaml", few), "--out", out.path() + "/bundles"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("few.yaml:11:11: error: sessions:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("give at least 4 sessions"), std::string::npos) << r.err;

  // A counted primary over cells with no counted run could never be measured: refused.
  std::string uncounted = replaced(slurp(fixture("counted-subquery-cache.yaml")),
                                   "matrix: tiny-counted.yaml", "matrix: " + fixture("tiny.yaml"));
  uncounted = replaced(uncounted, "  accept_cells: {trace: [counted]}\n", "");
  for (int side = 0; side < 2; ++side) {
    uncounted = replaced(uncounted, "oracle: ../oracle/", "oracle: " + fixture("../oracle/"));
  }
  r = jbench({"propose", out.write("uncounted.yaml", uncounted), "--out", out.path() + "/bundles"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("uncounted.yaml:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("instructions_per_op is counted only in the counted trace mode"),
            std::string::npos)
      << r.err;

  // A project's counter is a metric by its name; a jb_counter one needs a full cell to be
  // recorded in, and a name of neither form is unknown, the forms named.
  std::string project = replaced(slurp(fixture("planted-speedup.yaml")), "matrix: tiny.yaml",
                                 "matrix: " + fixture("tiny.yaml"));
  project = replaced(project, "{metric: cpu_ns_per_op, expect: decrease}",
                     "{metric: counter:steps_per_op, expect: decrease}");
  for (int side = 0; side < 2; ++side) {
    project = replaced(project, "oracle: ../oracle/", "oracle: " + fixture("../oracle/"));
  }
  r = jbench({"propose", out.write("project.yaml", project), "--out", out.path() + "/bundles"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("project.yaml:19:"), std::string::npos) << r.err;
  EXPECT_NE(
      r.err.find("counter:steps_per_op is a jb_counter, recorded only in the full trace mode"),
      std::string::npos)
      << r.err;
  project = replaced(project, "counter:steps_per_op", "steps_per_op");
  r = jbench({"propose", out.write("unknown.yaml", project), "--out", out.path() + "/bundles"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("unknown metric 'steps_per_op'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("counter:<name>_per_op"), std::string::npos) << r.err;

  // A file the proposal names that is not there is named where the proposal names it.
  r = jbench({"propose", out.write("lost.yaml", slurp(fixture("planted-speedup.yaml"))), "--out",
              out.path() + "/bundles"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("lost.yaml:7:9: error: matrix:"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out.path() + "/bundles"));
}

TEST(ProposeCli, an_interrupted_proposal_leaves_its_evidence_and_gives_no_verdict) {
  test::TempDir out;
  // Past both oracle passes, as the second of the eight sessions begins.
  const auto r = jbench({"propose", fixture("same-as-baseline.yaml"), "--out", out.path()},
                        "propose: session 2/8");
  ASSERT_TRUE(r.signal_sent) << r.out << r.err;
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  const std::string b = only_bundle(out.path());
  EXPECT_TRUE(b.ends_with(".interrupted")) << b;
  const Json record = record_of(b);
  EXPECT_EQ(record["status"], "interrupted");
  EXPECT_EQ(record["verdict"], "inconclusive");
  // The first session is kept whole; the second was cut or never begun; none after it ran.
  ASSERT_GE(record["sessions"].size(), 1u);
  EXPECT_LE(record["sessions"].size(), 2u);
}

}  // namespace
}  // namespace jbench
