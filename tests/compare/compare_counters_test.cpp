// The attribution account's counters as compare metrics, on real runs: a writer with one planted
// fdatasync per transaction against the same writer without it (tests/fixtures/run/
// attribution-*.yaml, baseline, light and full). The traced cells' fsyncs per operation must rise
// and be called regressed; the baseline cells, whose syscall collector was not requested, must
// have no fsync row at all (not a zero); CPU time, page faults and bytes written per operation
// come from every run, and the plant's record shows in the bytes written.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "run_process.h"
#include "temp_dir.h"

namespace jbench {
namespace {

test::ProcessResult jbench(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {JBENCH_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  test::ProcessOptions o;
  o.timeout = std::chrono::seconds(180);
  return test::run_process(argv, o);
}

const nlohmann::json* row(const nlohmann::json& report, const std::string& cell,
                          const std::string& metric) {
  for (const auto& r : report["rows"]) {
    if (r["cell"] == cell && r["metric"] == metric) return &r;
  }
  return nullptr;
}

TEST(CompareCounters, planted_fsyncs_regress_the_traced_cells_and_baselines_have_no_fsync_row) {
  test::TempDir dir;
  for (const std::string name : {"unplanted", "planted"}) {
    // Three repetitions are too few for the rank test (3 + 3 runs reach p = 0.1 at best): six.
    std::ifstream in(std::string(JBENCH_SOURCE_DIR) + "/tests/fixtures/run/attribution-" + name +
                     ".yaml");
    std::stringstream text;
    text << in.rdbuf();
    std::string yaml = text.str();
    const auto at = yaml.find("repetitions: 3");
    ASSERT_NE(at, std::string::npos);
    yaml.replace(at, 14, "repetitions: 6");
    const std::string matrix = dir.path() + "/" + name + ".yaml";
    std::ofstream(matrix) << yaml;
    auto run = jbench({"run", matrix, "--out", dir.path(), "--name", name});
    ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  }
  auto c = jbench({"compare", dir.path() + "/unplanted", dir.path() + "/planted",
                   "--allow-different-settings", "--json"});
  EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
  auto report = nlohmann::json::parse(c.out, nullptr, false);
  ASSERT_TRUE(report.is_object()) << c.out;
  const std::string cell = "w1.persistent.writer.small.";
  for (const char* mode : {"light", "full"}) {
    const auto* fsyncs = row(report, cell + mode, "fsyncs_per_op");
    ASSERT_NE(fsyncs, nullptr) << mode << "\n" << c.out;
    EXPECT_EQ((*fsyncs)["n_base"], 6) << mode;
    // One planted fdatasync per one-statement transaction; WAL commits at synchronous=normal
    // add none, checkpoints a few.
    EXPECT_GE((*fsyncs)["candidate_median"].get<double>(), 0.9) << mode;
    EXPECT_LT((*fsyncs)["base_median"].get<double>(), 0.2) << mode;
    EXPECT_EQ((*fsyncs)["verdict"], "regressed") << mode << " " << fsyncs->dump();
    const auto* calls = row(report, cell + mode, "traced_syscalls_per_op");
    ASSERT_NE(calls, nullptr) << mode;
    EXPECT_GT((*calls)["candidate_median"].get<double>(), (*calls)["base_median"].get<double>());
    // The call by name says which one rose: fdatasync, by one per operation.
    const auto* fdatasync = row(report, cell + mode, "syscall:fdatasync_per_op");
    ASSERT_NE(fdatasync, nullptr) << mode << "\n" << c.out;
    EXPECT_EQ((*fdatasync)["verdict"], "regressed") << mode << " " << fdatasync->dump();
    EXPECT_NEAR(
        (*fdatasync)["candidate_median"].get<double>() - (*fdatasync)["base_median"].get<double>(),
        1.0, 0.1)
        << mode << " " << fdatasync->dump();
    // Every run of either side counts in every call's row: a call a run did not make is its
    // measured zero, never a missing run.
    std::size_t call_rows = 0;
    for (const auto& r : report["rows"]) {
      if (r["cell"] != cell + mode || !r["metric"].get<std::string>().starts_with("syscall:"))
        continue;
      ++call_rows;
      EXPECT_EQ(r["n_base"], 6) << r.dump();
      EXPECT_EQ(r["n_candidate"], 6) << r.dump();
    }
    EXPECT_GE(call_rows, 2u) << mode;
  }
  EXPECT_EQ(row(report, cell + "baseline", "fsyncs_per_op"), nullptr) << c.out;
  EXPECT_EQ(row(report, cell + "baseline", "traced_syscalls_per_op"), nullptr) << c.out;
  EXPECT_EQ(row(report, cell + "baseline", "syscall:fdatasync_per_op"), nullptr) << c.out;
  // The sqlite worker has no collector of garbage: its gc collector is not available, so there
  // is no gc row either.
  EXPECT_EQ(row(report, cell + "light", "gc_collections_per_op"), nullptr) << c.out;
  const auto* cpu = row(report, cell + "baseline", "cpu_ns_per_op");
  ASSERT_NE(cpu, nullptr) << c.out;
  EXPECT_GT((*cpu)["base_median"].get<double>(), 0);
  // The plant writes a 512-byte record per transaction before its fdatasync: the kernel's count
  // of bytes written (the cpu collector, every mode, the baseline's too) rises by that record.
  for (const char* mode : {"baseline", "light", "full"}) {
    const auto* written = row(report, cell + mode, "bytes_written_per_op");
    ASSERT_NE(written, nullptr) << mode << "\n" << c.out;
    const double added =
        (*written)["candidate_median"].get<double>() - (*written)["base_median"].get<double>();
    EXPECT_NEAR(added, 512, 64) << mode << " " << written->dump();
    EXPECT_EQ((*written)["verdict"], "regressed") << mode << " " << written->dump();
    const auto* faults = row(report, cell + mode, "page_faults_per_op");
    ASSERT_NE(faults, nullptr) << mode;
    EXPECT_GT((*faults)["base_median"].get<double>(), 0) << mode;
    ASSERT_NE(row(report, cell + mode, "bytes_read_per_op"), nullptr) << mode;
  }
}

}  // namespace
}  // namespace jbench
