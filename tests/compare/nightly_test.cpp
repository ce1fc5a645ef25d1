// ci/nightly.sh end to end on a cut-down matrix, in one results folder: the first night has
// nothing to compare with (exit 4, said so); the second runs its build and the first night's,
// kept, in alternating sessions (ABBA) and compares them; the third plants a known delay per
// operation and must exit 1 naming the regressed cell, its night kept apart; the fourth
// compares with the second's build, not the planted one; a night whose base build is no longer
// kept says so and gives no verdict. Every night is kept, and the history is written each night.
#include <gtest/gtest.h>

#include <algorithm>
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

test::ProcessResult night(const std::string& results, const std::vector<std::string>& extra,
                          const std::string& sigterm_when = {}) {
  std::vector<std::string> argv = {
      "/bin/bash",  JBENCH_SOURCE_DIR + "/ci/nightly.sh",
      "--results",  results,
      "--matrix",   JBENCH_SOURCE_DIR + "/tests/fixtures/compare/nightly-tiny.yaml",
      "--sessions", "5"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  test::ProcessOptions o;
  o.timeout = std::chrono::seconds(600);  // a safety net: a night here takes well under one
  o.env = {{"JBENCH_NIGHTLY_NO_BUILD", "1"}, {"BUILD_DIR", JBENCH_BUILD_DIR}};
  if (!sigterm_when.empty()) {
    o.signal_when = sigterm_when;
    o.signal = SIGTERM;
  }
  return test::run_process(argv, o);
}

// The files in `dir` whose names end with `suffix`.
std::size_t files_ending(const std::string& dir, const std::string& suffix) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    n += e.is_regular_file() && e.path().filename().string().ends_with(suffix);
  }
  return n;
}

// The page exists, is a whole HTML document, and its outcome banner is the one given.
void expect_page(const std::string& path, const std::string& outcome) {
  std::ifstream in(path);
  ASSERT_TRUE(in) << path << " was not written";
  const std::string html((std::istreambuf_iterator<char>(in)), {});
  EXPECT_TRUE(html.starts_with("<!DOCTYPE html>")) << path;
  EXPECT_TRUE(html.ends_with("</html>\n")) << path;
  EXPECT_NE(html.find("data-outcome=\"" + outcome + "\""), std::string::npos) << path;
}

// When the session bundle started (manifest.json /started_utc, to the second) and its name, so
// that two sessions started within one second still sort in the order they ran.
std::string started(const std::string& bundle) {
  std::ifstream in(bundle + "/manifest.json");
  return nlohmann::json::parse(in)["started_utc"].get<std::string>();
}

std::size_t bundles_in(const std::string& dir) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    n += e.is_directory() && (name.starts_with("nightly-") || name.starts_with("planted-"));
  }
  return n;
}

TEST(Nightly, first_no_verdict_then_compared_then_a_planted_regression_kept_apart) {
  test::TempDir dir;
  const std::string results = dir.path() + "/results";
  auto first = night(results, {});
  ASSERT_FALSE(first.timed_out);
  EXPECT_EQ(first.exit_code, 4) << first.out << first.err;
  EXPECT_NE(first.out.find("no earlier valid nightly"), std::string::npos) << first.out;
  EXPECT_NE(first.out.find("- validation: valid"), std::string::npos) << first.out;
  // Nothing compared, no comparison page; the history page every night.
  EXPECT_EQ(files_ending(results, ".compare.html"), 0u);
  expect_page(results + "/history.html", "no_verdict");
  EXPECT_NE(first.out.find(results + "/history.html`"), std::string::npos) << first.out;

  // The names are to the second: a night begun within the same second gets its own folder.
  auto second = night(results, {});
  // The same build twice: whatever the noise allows (a verdict, or none); not asserted, since a
  // false alarm at the FDR level is possible by design. The summary says what was compared.
  EXPECT_FALSE(second.timed_out);
  EXPECT_NE(second.exit_code, 2) << second.out << second.err;
  EXPECT_NE(second.out.find("- comparison with the build of `" + results + "/nightly-"),
            std::string::npos)
      << second.out;
  EXPECT_NE(second.out.find("- cells compared:\n  - w1.persistent.writer.small.baseline: "),
            std::string::npos)
      << second.out;
  // Counted beside timed: the same build on both sides counts the same instructions, pair by
  // pair, where its times only tell what ten runs of noise can.
  EXPECT_NE(second.out.find("  - w1.persistent.writer.small.counted: same: instructions_per_op"),
            std::string::npos)
      << second.out;
  EXPECT_NE(second.out.find("(counted metrics 0.005, pair by pair)"), std::string::npos)
      << second.out;
  // The first night's build, kept, ran tonight between this build's sessions: ABBA.
  std::smatch night2;
  ASSERT_TRUE(std::regex_search(second.out, night2, std::regex("in `([^`]*/nightly-[^`/]*)`")))
      << second.out;
  const std::string n2 = night2[1];
  for (const char* s : {"/s1", "/s2", "/base/s1", "/base/s2", "/night.json"}) {
    EXPECT_TRUE(fs::exists(n2 + s)) << n2 + s;
  }
  // The kept build is whole: its sessions' correctness pass (which starts the ledger worker
  // beside the workload's) passed, so they are proven evidence.
  for (const char* s : {"/base/s1", "/base/s2"}) {
    auto v = test::run_process({JBENCH_BUILD_DIR + "/bin/jbench", "validate", n2 + s});
    EXPECT_EQ(v.exit_code, 0) << n2 + s << ": " << v.out << v.err;
  }
  EXPECT_LE(started(n2 + "/s1"), started(n2 + "/base/s1"));
  EXPECT_LE(started(n2 + "/base/s1"), started(n2 + "/base/s2"));
  EXPECT_LE(started(n2 + "/base/s2"), started(n2 + "/s2"));
  std::size_t builds = 0;
  for (const auto& e : fs::directory_iterator(results + "/builds")) {
    builds += e.is_directory() && fs::is_regular_file(e.path() / "bin/jbench-sqlite-worker");
  }
  EXPECT_EQ(builds, 1u);  // the same build both nights: kept once
  EXPECT_EQ(files_ending(results, ".compare.html"), 1u);
  // The page the summary names shows the outcome its JSON twin states.
  std::smatch named;
  ASSERT_TRUE(std::regex_search(second.out, named, std::regex("`([^`]*)\\.compare\\.html`")))
      << second.out;
  std::ifstream twin(named[1].str() + ".compare.json");
  ASSERT_TRUE(twin) << named[1];
  expect_page(named[1].str() + ".compare.html", nlohmann::json::parse(twin)["outcome"]);

  auto planted = night(results, {"--plant-delay-ns", "100000"});
  EXPECT_EQ(planted.exit_code, 1) << planted.out << planted.err;
  EXPECT_NE(planted.out.find("with plant_delay_ns: 100000"), std::string::npos) << planted.out;
  EXPECT_NE(
      planted.out.find("- regressed: w1.persistent.writer.small.baseline throughput_ops_per_s"),
      std::string::npos)
      << planted.out;
  // Kept apart: a planted bundle measured another setting.
  EXPECT_EQ(bundles_in(results), 2u);
  EXPECT_EQ(bundles_in(results + "/planted"), 1u);
  EXPECT_NE(planted.out.find("- planted: kept in"), std::string::npos) << planted.out;
  EXPECT_TRUE(fs::is_regular_file(results + "/history.txt"));
  EXPECT_EQ(files_ending(results, ".compare.html"), 1u);
  EXPECT_EQ(files_ending(results + "/planted", ".compare.html"), 1u);
  expect_page(results + "/history.html", "no_verdict");  // two nights: too few for a verdict

  // The night after compares with the last unplanted night, never with the planted one; each
  // metric is judged against its own A/A noise, read from the second night (one build twice).
  const std::string aa_report = named[1].str() + ".compare.json";
  auto fourth = night(results, {"--thresholds-from", aa_report});
  EXPECT_NE(fourth.exit_code, 2) << fourth.out << fourth.err;
  std::smatch base;
  ASSERT_TRUE(
      std::regex_search(fourth.out, base, std::regex("- comparison with the build of `([^`]*)`")))
      << fourth.out;
  EXPECT_NE(base[1].str().find("/nightly-"), std::string::npos) << base[1];
  EXPECT_EQ(base[1].str().find("planted"), std::string::npos) << base[1];
  EXPECT_NE(fourth.out.find("each metric's own from 1 A/A report(s)"), std::string::npos)
      << fourth.out;
  EXPECT_EQ(bundles_in(results), 3u);  // every night kept
  // The planted matrix copy is not left beside the fixture.
  EXPECT_FALSE(
      fs::exists(JBENCH_SOURCE_DIR + "/tests/fixtures/compare/.planted-nightly-tiny.yaml"));

  // Without the last night's build there is nothing to run beside this one: no verdict, said so,
  // never a comparison with last night's runs from another session. (The last night's record
  // names a build that is no longer kept, as one removed by hand would be.)
  std::smatch fourth_night;
  ASSERT_TRUE(
      std::regex_search(fourth.out, fourth_night, std::regex("in `([^`]*/nightly-[^`/]*)`")))
      << fourth.out;
  std::ifstream fourth_report(fourth_night[1].str() + ".compare.json");
  ASSERT_TRUE(fourth_report) << fourth_night[1];
  const nlohmann::json own = nlohmann::json::parse(fourth_report)["metric_thresholds"];
  EXPECT_TRUE(own.contains("throughput_ops_per_s")) << own.dump();
  const std::string record = fourth_night[1].str() + "/night.json";
  std::ifstream in(record);
  nlohmann::json night_record = nlohmann::json::parse(in);
  in.close();
  night_record["build"] = "00000000deadbeef";
  std::ofstream(record) << night_record.dump() << "\n";
  auto orphan = night(results, {});
  EXPECT_EQ(orphan.exit_code, 4) << orphan.out << orphan.err;
  EXPECT_NE(orphan.out.find("(00000000deadbeef) is not kept in `" + results + "/builds`"),
            std::string::npos)
      << orphan.out;
  EXPECT_EQ(bundles_in(results), 4u);
}

// Bad usage is refused before anything runs or is written: exit 2, one line saying why.
TEST(Nightly, bad_usage_exits_2_before_anything_runs) {
  test::TempDir dir;
  const std::string results = dir.path() + "/results";
  const std::string not_a_report = dir.write("history.json", "{\"schema\": \"jbench.history\"}\n");
  const std::string two_builds = dir.write(
      "ab.json",
      "{\n  \"schema\": \"jbench.compare_report\",\n  \"build_differences\": [\n    \"worker\"\n  "
      "],\n  \"setting_differences\": []\n}\n");
  for (const std::vector<std::string>& bad : {std::vector<std::string>{"--threshold", "1.5"},
                                              {"--threshold", "abc"},
                                              {"--sessions", "0"},
                                              {"--plant-delay-ns", "some"},
                                              {"--thresholds-from", "/no/such/report.json"},
                                              {"--thresholds-from", not_a_report},
                                              {"--thresholds-from", two_builds},
                                              {"--no-such-option"},
                                              {"--sessions"}}) {
    auto r = night(results, bad);
    EXPECT_EQ(r.exit_code, 2) << bad[0] << ": " << r.out << r.err;
    EXPECT_TRUE(r.err.starts_with("nightly: ")) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  EXPECT_FALSE(fs::exists(results));
}

// A night stopped by SIGTERM says so beside its sessions, exits 1, and is never the base of the
// night after: that one runs beside the last night that ran all its sessions.
TEST(Nightly, an_interrupted_night_says_so_and_is_never_a_base) {
  test::TempDir dir;
  const std::string results = dir.path() + "/results";
  auto first = night(results, {});
  ASSERT_EQ(first.exit_code, 4) << first.out << first.err;
  std::smatch whole;
  ASSERT_TRUE(std::regex_search(first.out, whole, std::regex("in `([^`]*/nightly-[^`/]*)`")))
      << first.out;
  const std::string complete = whole[1];

  // Ten sessions: the signal comes as the second begins, while the night still has eight to run.
  auto cut = night(results, {}, "nightly: session 2/10");
  EXPECT_EQ(cut.exit_code, 1) << cut.out << cut.err;
  EXPECT_NE(cut.out.find("- interrupted by SIGTERM after "), std::string::npos) << cut.out;
  EXPECT_NE(cut.out.find(" of 10 sessions: nothing is compared"), std::string::npos) << cut.out;
  EXPECT_EQ(files_ending(results, ".summary.md"), 2u);  // the cut night's summary is written

  auto after = night(results, {});
  EXPECT_NE(after.exit_code, 2) << after.out << after.err;
  EXPECT_NE(after.out.find("- comparison with the build of `" + complete + "`"), std::string::npos)
      << after.out;
  EXPECT_EQ(bundles_in(results), 3u);  // the cut night is kept
}

}  // namespace
}  // namespace jbench
