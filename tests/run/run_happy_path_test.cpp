// `jbench run` on a real SQLite matrix: the bundle it leaves and what that bundle says.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>

#include "run_support.h"

namespace jbench::test {
namespace {

namespace fs = std::filesystem;

class RunHappyPath : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    tag_ = unique_tag();
    RunInvocation inv;
    inv.args = {"--only", "connection=persistent"};
    result_ = new ProcessResult(run_jbench_run(*dir_, inv, tag_));
    bundle_ = dir_->path() + "/out/b";
  }
  static void TearDownTestSuite() {
    delete result_;
    delete dir_;
  }
  static TempDir* dir_;
  static ProcessResult* result_;
  static std::string bundle_;
  static std::string tag_;
};
TempDir* RunHappyPath::dir_ = nullptr;
ProcessResult* RunHappyPath::result_ = nullptr;
std::string RunHappyPath::bundle_;
std::string RunHappyPath::tag_;

TEST_F(RunHappyPath, exits_0_prints_the_bundle_path_and_the_cell_table) {
  ASSERT_FALSE(result_->timed_out);
  EXPECT_EQ(result_->exit_code, 0) << result_->err;
  EXPECT_EQ(result_->out, bundle_ + "\n");
  EXPECT_NE(result_->err.find("ops/s (med)"), std::string::npos) << result_->err;
  EXPECT_NE(result_->err.find("w2.persistent.mixed.small.baseline"), std::string::npos);
  EXPECT_TRUE(processes_tagged(tag_).empty());
  // The table's rows in the matrix's axis order (this run is untraced: baselines only).
  std::vector<std::string> rows;
  std::istringstream err(result_->err.substr(result_->err.find("ops/s (med)")));
  std::string line;
  std::getline(err, line);  // the header
  while (std::getline(err, line) && !line.empty()) rows.push_back(line.substr(0, line.find(' ')));
  EXPECT_EQ(rows, (std::vector<std::string>{
                      "w1.persistent.writer.small.baseline", "w1.persistent.mixed.small.baseline",
                      "w2.persistent.writer.small.baseline", "w2.persistent.mixed.small.baseline"}))
      << result_->err;
}

TEST_F(RunHappyPath, the_bundle_checks_with_sha256sum_and_was_valid_before_it) {
  ASSERT_TRUE(fs::is_directory(bundle_)) << result_->err;
  ProcessOptions options;
  options.cwd = bundle_;
  const auto check = run_process({"/usr/bin/sha256sum", "--quiet", "-c", "SHA256SUMS"}, options);
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  const auto validation = read_json(bundle_ + "/validation.json");
  EXPECT_EQ(validation["valid"], true) << validation.dump(2);
  EXPECT_EQ(validation["findings"], nlohmann::json::array());
  // And anyone can check it again later, with the same validator.
  const auto again = run_process({JBENCH_BINARY, "validate", bundle_});
  EXPECT_EQ(again.exit_code, 0) << again.out << again.err;
}

TEST_F(RunHappyPath, the_manifest_says_which_values_were_measured_and_which_only_planned) {
  const auto manifest = read_json(bundle_ + "/manifest.json");
  ASSERT_FALSE(manifest.is_discarded());
  EXPECT_EQ(manifest["status"], "complete");
  EXPECT_EQ(manifest["run_counts"]["ok"], 8);
  const auto& axes = manifest["plan"]["axes"];
  std::map<std::string, nlohmann::json> by_axis;
  for (const auto& a : axes) by_axis[a["axis"]] = a["values"];
  EXPECT_EQ(by_axis["connection"][0]["state"], "measured");
  EXPECT_EQ(by_axis["connection"][1]["state"], "planned");
  EXPECT_EQ(by_axis["trace"][0]["state"], "measured");
  EXPECT_EQ(by_axis["trace"][1]["value"], "full");
  EXPECT_EQ(by_axis["trace"][1]["state"], "planned");
  EXPECT_NE(by_axis["trace"][1]["reason"].get<std::string>().find("--only"), std::string::npos)
      << by_axis["trace"][1];
  // The mode manifest still says what full would run.
  EXPECT_EQ(manifest["trace_modes"]["full"]["bridge_mode"], "full");
  for (const auto& run : manifest["runs"]) EXPECT_EQ(run["trace"], "baseline");
}

TEST_F(RunHappyPath, every_run_registers_its_cohort_and_orders_its_boundaries) {
  const auto manifest = read_json(bundle_ + "/manifest.json");
  for (const auto& entry : manifest["runs"]) {
    const std::string id = entry["id"];
    const auto run = read_json(bundle_ + "/runs/" + id + "/run.json");
    ASSERT_EQ(run["status"], "ok") << id << ": " << run["reason"];
    const std::size_t workers = id.rfind("w1.", 0) == 0 ? 1 : 2;
    const auto& members = run["cohort"]["members"];
    ASSERT_EQ(members.size(), workers) << id;
    std::set<std::string> runtime_ids;
    for (const auto& m : members) {
      EXPECT_EQ(m["forked"], false);
      EXPECT_EQ(m["boot_id"], run["cohort"]["boot_id"]);
      EXPECT_NE(m["start_time_ticks"], "0");
      runtime_ids.insert(m["runtime_id"].get<std::string>());
      // Registered before the worker was configured, let alone released.
      EXPECT_LT(std::stoull(m["registered_ns"].get<std::string>()),
                std::stoull(run["boundaries"]["warmup_start_ns"].get<std::string>()));
    }
    EXPECT_EQ(runtime_ids.size(), workers);
    const auto& b = run["boundaries"];
    std::uint64_t previous = 0;
    for (const char* key :
         {"startup_start_ns", "warmup_start_ns", "warmup_end_ns", "measure_start_ns",
          "measure_end_ns", "teardown_start_ns", "teardown_end_ns"}) {
      const auto t = std::stoull(b[key].get<std::string>());
      EXPECT_GE(t, previous) << id << " " << key;
      previous = t;
    }
    for (const auto& w : run["workers"]) {
      EXPECT_EQ(w["exit"]["code"], 0);
      EXPECT_EQ(w["exit"]["signaled"], false);
      EXPECT_GT(std::stoull(w["exit"]["user_ns"].get<std::string>()) +
                    std::stoull(w["exit"]["system_ns"].get<std::string>()),
                0u);
    }
    EXPECT_TRUE(run["leftover_processes"].empty());
    EXPECT_EQ(run["dataset"]["fits_page_cache"], true);
  }
}

TEST_F(RunHappyPath, the_window_between_two_runs_is_sampled_once_and_recorded_in_both) {
  const auto manifest = read_json(bundle_ + "/manifest.json");
  std::map<std::int64_t, nlohmann::json> by_order;
  for (const auto& entry : manifest["runs"]) {
    const std::string id = entry["id"];
    auto run = read_json(bundle_ + "/runs/" + id + "/run.json");
    const auto order = run["order"].get<std::int64_t>();
    by_order[order] = std::move(run);
  }
  ASSERT_GE(by_order.size(), 2u);
  std::size_t shared = 0;
  const nlohmann::json* previous = nullptr;
  for (const auto& [order, run] : by_order) {
    const auto& before = run["noise_before"];
    if (previous == nullptr) {
      EXPECT_FALSE(before.contains("sampled_after_run")) << run["id"];
    } else if (before.contains("sampled_after_run")) {
      ++shared;
      EXPECT_EQ(before["sampled_after_run"], (*previous)["id"]) << run["id"];
      auto sample = before;
      sample.erase("sampled_after_run");
      EXPECT_EQ(sample, (*previous)["noise_after"]) << run["id"];
    }
    EXPECT_FALSE(run["noise_after"].contains("sampled_after_run")) << run["id"];
    previous = &run;
  }
  EXPECT_GE(shared, 1u);
}

TEST_F(RunHappyPath, summaries_are_recomputable_from_raw_records_and_mixed_runs_mix) {
  const auto manifest = read_json(bundle_ + "/manifest.json");
  for (const auto& entry : manifest["runs"]) {
    const std::string dir = bundle_ + "/runs/" + entry["id"].get<std::string>();
    const auto summary = read_json(dir + "/summary.json");
    std::uint64_t operations = 0;
    for (const auto& f : fs::directory_iterator(dir + "/raw")) {
      const std::string name = f.path().filename().string();
      if (name.rfind("worker-", 0) != 0) continue;  // the collectors' files are checked below
      operations += read_json(f.path().string())["operations"].get<std::uint64_t>();
    }
    // The cpu collector ran (the kernel's accounting, in every mode): per worker and phase,
    // and the phases add up to the exact exit totals.
    const auto& cpu = summary["collectors"]["cpu"]["incarnations"];
    ASSERT_EQ(cpu.size(), entry["id"].get<std::string>().rfind("w1.", 0) == 0 ? 1u : 2u);
    for (const auto& inc : cpu) {
      std::uint64_t phases = 0;
      for (const auto& [name, p] : inc["phases"].items()) {
        phases += std::stoull(p["cpu_ns"].get<std::string>());
      }
      const std::uint64_t total = std::stoull(inc["total"]["cpu_ns"].get<std::string>());
      EXPECT_LE(phases > total ? phases - total : total - phases, 1'000'000u) << inc.dump();
      EXPECT_TRUE(inc["phases"].contains("measure")) << inc.dump();
    }
    EXPECT_EQ(summary["measure"]["operations"], operations);
    EXPECT_GT(summary["throughput_ops_per_s"].get<double>(), 0.0);
    if (entry["id"].get<std::string>().find(".mixed.") != std::string::npos) {
      EXPECT_GT(summary["measure"]["reads"].get<std::uint64_t>(), 0u);
      EXPECT_GT(summary["measure"]["writes"].get<std::uint64_t>(), 0u);
    }
  }
}

TEST_F(RunHappyPath, a_second_session_never_overwrites_the_bundle) {
  const std::string tag = unique_tag();
  RunInvocation inv;
  inv.args = {"--only", "connection=persistent", "--only", "workers=1"};
  const auto second = run_jbench_run(*dir_, inv, tag);
  EXPECT_EQ(second.exit_code, 2);
  EXPECT_NE(second.err.find("already exists"), std::string::npos) << second.err;
  EXPECT_EQ(read_json(bundle_ + "/manifest.json")["run_counts"]["ok"], 8);
  EXPECT_TRUE(processes_tagged(tag).empty());
}

}  // namespace
}  // namespace jbench::test
