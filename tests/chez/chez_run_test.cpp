// The harness knows the kind `chez`: `jbench plan` accepts matrices/chez.yaml, and `jbench run`
// of a small Chez matrix (tests/chez/fixtures/tiny.yaml) builds its dataset with the worker,
// runs real Chez cohorts, leaves no process behind and leaves a bundle `jbench validate`
// accepts.
#include <dirent.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "chez_worker.h"
#include "jbench/matrix/worker_declaration.h"
#include "jbench/proc/proc_stat.h"
#include "run_process.h"
#include "text_file.h"

namespace jbench::test {
namespace {

namespace fs = std::filesystem;

json read_json(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return json::parse(s.str(), nullptr, false);
}

// Live processes whose environment holds JBENCH_TEST_TAG=<tag>: what a run left behind.
std::vector<int> processes_tagged(const std::string& tag) {
  std::vector<int> found;
  const std::string needle = std::string("JBENCH_TEST_TAG=") + tag;
  DIR* proc = opendir("/proc");
  while (dirent* e = proc ? readdir(proc) : nullptr) {
    const int pid = std::atoi(e->d_name);
    if (pid <= 0) continue;
    const auto stat = proc::read_proc_stat(pid);
    if (!stat || stat->state == 'Z') continue;
    std::ifstream env("/proc/" + std::string(e->d_name) + "/environ", std::ios::binary);
    std::stringstream s;
    s << env.rdbuf();
    const std::string environ = s.str();
    for (std::size_t start = 0; start < environ.size();) {
      const auto end = environ.find('\0', start);
      if (environ.compare(start, end - start, needle) == 0) found.push_back(pid);
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
  if (proc) closedir(proc);
  return found;
}

// What the worker declares of itself agrees with the harness's table of the `chez` kind, and
// says it reports collections and samples its own allocations.
TEST(ChezHarness, DescribeAgreesWithTheHarnessTableOfTheChezKind) {
  const auto r = run_process({chez_worker_binary(), "describe"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_FALSE(r.out.empty());
  EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << r.out;
  const auto said = parse_worker_declaration(r.out.substr(0, r.out.size() - 1));
  ASSERT_TRUE(said) << said.error().message << "\n" << r.out;
  const auto& declared = *said;
  EXPECT_EQ(declared->worker(), "chez");
  EXPECT_TRUE(declared->gc_events());
  EXPECT_TRUE(declared->runtime_allocates());
  const auto differences = parameter_differences(*find_workload_kind("chez"), declared->kind());
  EXPECT_TRUE(differences.empty()) << ::testing::PrintToString(differences);
}

// matrices/chez.yaml names the worker by its command, relative to itself: the default build
// folder's launcher. Where the suite's build is elsewhere, a copy of the matrix names this one.
TEST(ChezHarness, PlanAcceptsTheChezMatrixThroughItsWorkersOwnDescription) {
  TempDir dir;
  const std::string matrix =
      write_edited_copy(source_dir() + "/matrices/chez.yaml", dir.path() + "/chez.yaml",
                        {{"[../build/bin/jbench-chez-worker]", "[" + chez_worker_binary() + "]"}});
  const auto r = run_process({jbench_binary(), "plan", matrix, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json plan = json::parse(r.out, nullptr, false);
  ASSERT_FALSE(plan.is_discarded()) << r.out.substr(0, 400);
  EXPECT_EQ(plan["matrix"]["workload"]["kind"], "process") << r.out.substr(0, 400);
  EXPECT_EQ(plan["runs"].size(), 48u);
  // Its parameters are the worker's own declaration, the same table the built-in kind keeps.
  EXPECT_EQ(plan["matrix"]["workload"]["declaration"]["worker"], "chez")
      << plan["matrix"]["workload"].dump().substr(0, 400);
}

TEST(ChezHarness, RunOfASmallChezMatrixLeavesAValidBundle) {
  TempDir dir;
  const std::string tag = "chez-run-" + std::to_string(getpid());
  ProcessOptions options;
  options.timeout = std::chrono::seconds(110);
  options.env = {{"JBENCH_TEST_TAG", tag}};
  const auto r =
      run_process({jbench_binary(), "run", source_dir() + "/tests/chez/fixtures/tiny.yaml", "--out",
                   dir.path() + "/out", "--name", "b"},
                  options);
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(processes_tagged(tag).empty());
  const std::string bundle = dir.path() + "/out/b";
  ASSERT_TRUE(fs::is_directory(bundle)) << r.err;

  const auto validate = run_process({jbench_binary(), "validate", bundle});
  EXPECT_EQ(validate.exit_code, 0) << validate.out << validate.err;

  const json manifest = read_json(bundle + "/manifest.json");
  EXPECT_EQ(manifest["status"], "complete");
  EXPECT_EQ(manifest["run_counts"]["ok"], 4) << manifest["run_counts"].dump();
  std::size_t results = 0;
  for (const auto& run : fs::directory_iterator(bundle + "/runs")) {
    const json summary = read_json(run.path().string() + "/summary.json");
    const json run_doc = read_json(run.path().string() + "/run.json");
    EXPECT_EQ(run_doc["status"], "ok") << run.path();
    for (const auto& f : fs::directory_iterator(run.path() / "raw")) {
      if (f.path().filename().string().find(".result.json") == std::string::npos) continue;
      const json result = read_json(f.path().string());
      EXPECT_EQ(result["worker"], "chez");
      EXPECT_EQ(result["operations"], 400);
      EXPECT_EQ(result["gc"]["collections"], result["gc"]["runtime_collections"]);
      ++results;
    }
    // The summary adds the workers' counts: 400 operations each.
    EXPECT_EQ(summary["measure"]["operations"].get<std::uint64_t>() % 400, 0u);
  }
  EXPECT_EQ(results, 6u);  // 1 + 2 workers, two lanes
}

// The same worker named by its command (`kind: process`), found on PATH: what it declares of
// itself makes its full run's GC and allocation collectors the bridge's, as for `kind: chez`.
TEST(ChezHarness, TheChezWorkerRunsAsAProcessWorkerWithItsDeclaredTraits) {
  TempDir dir;
  const std::string tag = "chez-process-" + std::to_string(getpid());
  ProcessOptions options;
  options.timeout = std::chrono::seconds(110);
  const char* path = std::getenv("PATH");
  options.env = {{"JBENCH_TEST_TAG", tag},
                 {"PATH", fs::path(jbench_binary()).parent_path().string() + ":" +
                              (path ? path : "/usr/bin:/bin")}};
  const auto r =
      run_process({jbench_binary(), "run", source_dir() + "/tests/chez/fixtures/process.yaml",
                   "--out", dir.path() + "/out", "--name", "b"},
                  options);
  ASSERT_FALSE(r.timed_out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(processes_tagged(tag).empty());
  const std::string bundle = dir.path() + "/out/b";
  const auto validate = run_process({jbench_binary(), "validate", bundle});
  EXPECT_EQ(validate.exit_code, 0) << validate.out << validate.err;
  const json manifest = read_json(bundle + "/manifest.json");
  EXPECT_EQ(manifest["workload"]["kind"], "process");
  EXPECT_EQ(manifest["workload"]["worker"], "chez");
  EXPECT_EQ(manifest["workload"]["binary"],
            (fs::path(jbench_binary()).parent_path() / "jbench-chez-worker").string());
  // tree_nodes, a parameter it declared, is an axis: a full run per value.
  for (const char* nodes : {"32", "128"}) {
    const std::string id =
        std::string("w1.persistent.mixed.small.tree_nodes=") + nodes + ".full.r1";
    const json run = read_json(bundle + "/runs/" + id + "/run.json");
    ASSERT_EQ(run["status"], "ok") << run.dump().substr(0, 400);
    EXPECT_EQ(run["values"]["tree_nodes"], nodes);
    std::map<std::string, std::pair<std::string, std::string>> collectors;
    for (const auto& c : run["trace_mode"]["collectors"]) {
      collectors[c["name"]] = {c.value("status", ""), c.value("backend", "")};
    }
    EXPECT_EQ(collectors["gc"], std::make_pair(std::string("ok"), std::string("usdt-bridge")));
    EXPECT_EQ(collectors["alloc"], std::make_pair(std::string("ok"), std::string("usdt-bridge")));
    // Its own counter, bytes_allocated per batch by Chez's accounting, recorded in full runs.
    const json summary = read_json(bundle + "/runs/" + id + "/summary.json");
    std::int64_t allocated = 0;
    for (const auto& cell : summary["collectors"]["counters"]["cells"]) {
      if (cell["phase"] == "measure" && cell["name"] == "bytes_allocated") {
        allocated += cell["sum"].get<std::int64_t>();
      }
    }
    EXPECT_GT(allocated, 0) << summary["collectors"].dump().substr(0, 400);
  }
  const auto report = run_process({jbench_binary(), "report", bundle});
  EXPECT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(report.out.find("counter:bytes_allocated_per_op"), std::string::npos) << report.out;
}

// bin/ and lib/ copied elsewhere run as the build does: the launcher finds its sources, objects
// and bridge beside itself and names no path of the build or the checkout, so the nightly can
// keep last night's build. The copy passes check-worker and runs the process matrix, full runs
// loading the copied bridge.
TEST(ChezHarness, TheChezWorkerIsRelocatable) {
  TempDir dir;
  const fs::path build = fs::path(jbench_binary()).parent_path().parent_path();
  const fs::path copy = fs::path(dir.path()) / "elsewhere";
  fs::create_directories(copy / "bin");
  fs::create_directories(copy / "lib");
  fs::copy_file(build / "bin" / "jbench-chez-worker", copy / "bin" / "jbench-chez-worker");
  fs::copy(build / "lib" / "jbench-chez", copy / "lib" / "jbench-chez",
           fs::copy_options::recursive);
  for (const char* lib : {"libjbench_bridge.so", "libjbench_bridge.so.1"}) {
    fs::copy(build / "lib" / lib, copy / "lib" / lib, fs::copy_options::copy_symlinks);
  }
  std::ifstream in(copy / "bin" / "jbench-chez-worker");
  std::stringstream launcher;
  launcher << in.rdbuf();
  EXPECT_EQ(launcher.str().find(build.string()), std::string::npos) << launcher.str();
  EXPECT_EQ(launcher.str().find(source_dir()), std::string::npos) << launcher.str();

  const std::string worker = (copy / "bin" / "jbench-chez-worker").string();
  ProcessOptions options;
  options.timeout = std::chrono::seconds(110);
  options.cwd = dir.path();
  const auto checked = run_process({jbench_binary(), "check-worker", "--", worker}, options);
  EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;

  const std::string tag = "chez-relocated-" + std::to_string(getpid());
  const char* path = std::getenv("PATH");
  options.env = {{"JBENCH_TEST_TAG", tag},
                 {"PATH", (copy / "bin").string() + ":" + (path ? path : "/usr/bin:/bin")}};
  const auto r =
      run_process({jbench_binary(), "run", source_dir() + "/tests/chez/fixtures/process.yaml",
                   "--out", dir.path() + "/out", "--name", "b", "--only", "tree_nodes=32"},
                  options);
  ASSERT_FALSE(r.timed_out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(processes_tagged(tag).empty());
  const json manifest = read_json(dir.path() + "/out/b/manifest.json");
  EXPECT_EQ(manifest["workload"]["binary"], worker);
}

// Counted through the bridge alone: the worker is a shell script that execs Chez Scheme, which
// loads the bridge as a shared library; callgrind follows the exec, and the bridge's measure
// phase switches counting on. The same seed counts the same instructions, within a thousandth.
TEST(ChezHarness, ACountedChezRunCountsItsMeasurePhaseAlike) {
  TempDir dir;
  std::vector<double> per_op;
  for (const char* name : {"a", "b"}) {
    const auto r =
        run_process({jbench_binary(), "run", source_dir() + "/tests/chez/fixtures/counted.yaml",
                     "--out", dir.path() + "/out", "--name", name});
    ASSERT_FALSE(r.timed_out);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string run =
        dir.path() + "/out/" + name + "/runs/w1.persistent.mixed.small.counted.r1";
    const json summary = read_json(run + "/summary.json");
    const json& counted = summary["collectors"]["instructions"];
    ASSERT_TRUE(counted.is_object()) << summary.dump();
    EXPECT_EQ(summary["measure"]["operations"], 400);
    per_op.push_back(std::stod(counted["measure_instructions"].get<std::string>()) / 400);
  }
  EXPECT_GT(per_op[0], 1000);  // an operation of a Scheme program is real work
  EXPECT_LE(std::fabs(per_op[1] / per_op[0] - 1), 0.001) << per_op[0] << " " << per_op[1];
}

}  // namespace
}  // namespace jbench::test
