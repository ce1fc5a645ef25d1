// ci/duet.sh end to end: the base and the candidate run at once, each pinned to its own CPU, twice
// with the CPUs swapped, and `jbench compare --pair-by-time` pairs each base run with the
// candidate run that measured beside it. A planted busy wait of three statements' length is found
// pair by pair however busy the host (the suite runs beside it); what a duet can see on a given
// host is measured, not tested (docs/nightly.md, "Run orders compared").
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "run_process.h"
#include "temp_dir.h"

namespace jbench {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

test::ProcessResult duet(const std::string& out, const std::string& candidate) {
  const std::string fixtures = JBENCH_SOURCE_DIR + "/tests/fixtures/compare/";
  test::ProcessOptions o;
  o.timeout = std::chrono::seconds(300);  // a safety net: a duet here takes seconds
  o.env = {{"BUILD_DIR", JBENCH_BUILD_DIR}};
  return test::run_process({"/bin/bash", JBENCH_SOURCE_DIR + "/ci/duet.sh",
                            fixtures + "duet-tiny.yaml", fixtures + candidate, "--out", out},
                           o);
}

Json throughput_row(const std::string& out) {
  std::ifstream in(out + "/compare.json");
  const Json doc = Json::parse(in, nullptr, false);
  for (const auto& row : doc["rows"]) {
    if (row["metric"] == "throughput_ops_per_s") return row;
  }
  ADD_FAILURE() << "no throughput row in " << out << "/compare.json";
  return Json();
}

// Every run of every session met its partner before measuring (run.json `lockstep`).
void expect_every_run_met(const std::string& out) {
  std::size_t runs = 0;
  for (const char* side : {"/base/", "/candidate/"}) {
    for (const char* half : {"h1", "h2"}) {
      for (const auto& entry : fs::directory_iterator(out + side + half + "/runs")) {
        std::ifstream in(entry.path() / "run.json");
        const Json run = Json::parse(in, nullptr, false);
        EXPECT_EQ(run["lockstep"]["met"], true) << entry.path() << ": " << run["lockstep"].dump();
        ++runs;
      }
    }
  }
  EXPECT_EQ(runs, 24u);
}

TEST(Duet, the_same_build_beside_itself_is_compared_pair_by_pair) {
  test::TempDir dir;
  const std::string out = dir.path() + "/duet";
  const auto r = duet(out, "duet-tiny.yaml");
  ASSERT_FALSE(r.timed_out);
  // Compare's outcome (a host may make even A/A noisy enough to flag a row); never bad usage.
  EXPECT_NE(r.exit_code, 2) << r.out << r.err;
  for (const char* s : {"/base/h1", "/base/h2", "/candidate/h1", "/candidate/h2"}) {
    EXPECT_TRUE(fs::exists(out + s + "/SHA256SUMS")) << s << " is not a valid bundle";
  }
  const Json row = throughput_row(out);
  EXPECT_EQ(row["paired_by"], "time") << row.dump();
  // Six runs a half, two halves, held in lockstep: every base run measures beside its
  // candidate run, however busy the host, so every one of them finds its partner.
  EXPECT_EQ(row["units_base"].get<int>(), 12) << row.dump();
  EXPECT_EQ(row["units_candidate"].get<int>(), 12) << row.dump();
  expect_every_run_met(out);
  EXPECT_TRUE(row["ci_low"].is_number() && row["ci_high"].is_number()) << row.dump();
  EXPECT_NE(r.err.find("half 2 of 2: the base on CPU 1, the candidate on CPU 0"), std::string::npos)
      << r.err;
}

TEST(Duet, a_planted_busy_wait_is_found_pair_by_pair) {
  test::TempDir dir;
  const std::string out = dir.path() + "/duet";
  const auto r = duet(out, "duet-tiny-planted.yaml");
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;  // a regression
  const Json row = throughput_row(out);
  EXPECT_EQ(row["verdict"], "regressed") << row.dump();
  EXPECT_EQ(row["paired_by"], "time");
  EXPECT_EQ(row["units_base"].get<int>(), 12) << row.dump();
  expect_every_run_met(out);
  EXPECT_LT(row["ci_high"].get<double>(), 0.8) << row.dump();  // about x0.3 on a quiet host
}

TEST(Duet, bad_usage_exits_2_before_anything_runs) {
  test::TempDir dir;
  test::ProcessOptions o;
  o.env = {{"BUILD_DIR", JBENCH_BUILD_DIR}};
  const auto one = test::run_process({"/bin/bash", JBENCH_SOURCE_DIR + "/ci/duet.sh", "a.yaml"}, o);
  EXPECT_EQ(one.exit_code, 2) << one.err;
  const std::string m = JBENCH_SOURCE_DIR + "/tests/fixtures/compare/duet-tiny.yaml";
  const auto same_cpu = test::run_process({"/bin/bash", JBENCH_SOURCE_DIR + "/ci/duet.sh", m, m,
                                           "--cpus", "1,1", "--out", dir.path() + "/d"},
                                          o);
  EXPECT_EQ(same_cpu.exit_code, 2) << same_cpu.err;
  EXPECT_NE(same_cpu.err.find("two different CPUs"), std::string::npos) << same_cpu.err;
  EXPECT_FALSE(fs::exists(dir.path() + "/d"));
}

}  // namespace
}  // namespace jbench
