// `jbench run --syscall-backend dtrace` on the planted-fdatasync matrix, under a real DTrace
// (label `dtrace`; skipped, saying why, where none is found): the bundle validates, every traced
// run's syscall entry names DTrace, and `jbench report` names the planted fdatasync first in both
// traced modes, its full-mode share agreeing with the workers' own timing of it, as it does for
// the compiled tracer's bundles (run_attribution_test.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "jbench/host_caps/dtrace.h"
#include "run_support.h"

namespace jbench::test {
namespace {

using nlohmann::json;

const json* cell_of(const json& report, const std::string& mode) {
  for (const auto& c : report["cells"]) {
    if (c["mode"] == mode) return &c;
  }
  return nullptr;
}

TEST(RunDtrace, APlantedFdatasyncIsNamedFromADtraceBundleAsFromTheCompiledTracers) {
  if (const auto found = host_caps::find_dtrace(); found.path.empty()) {
    GTEST_SKIP() << found.reason;
  }
  TempDir dir;
  const std::string tag = unique_tag();
  RunInvocation inv;
  inv.matrix = "attribution-planted.yaml";
  inv.name = "planted-dtrace";
  inv.traced = true;
  inv.args = {"--syscall-backend", "dtrace"};
  const auto run = run_jbench_run(dir, inv, tag);
  ASSERT_FALSE(run.timed_out);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(processes_tagged(tag).empty());
  const std::string bundle = dir.path() + "/out/planted-dtrace";

  const json manifest = read_json(bundle + "/manifest.json");
  int traced = 0;
  for (const auto& e : manifest["runs"]) {
    if (e["trace"] == "baseline") continue;
    const json r = read_json(bundle + "/runs/" + e["id"].get<std::string>() + "/run.json");
    for (const auto& c : r["trace_mode"]["collectors"]) {
      if (c["name"] != "syscall") continue;
      EXPECT_EQ(c["backend"], "dtrace") << c.dump();
      EXPECT_EQ(c["status"], "ok") << c.dump();
      ++traced;
    }
  }
  EXPECT_EQ(traced, 6);

  const auto r = run_process({JBENCH_BINARY, "report", bundle, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = json::parse(r.out);
  const json* full = cell_of(report, "full");
  const json* light = cell_of(report, "light");
  ASSERT_TRUE(full && light) << report.dump(2);
  EXPECT_EQ((*full)["parts"][0]["label"], "fdatasync on plant.log") << (*full)["parts"].dump(2);
  EXPECT_EQ((*light)["parts"][0]["label"], "fdatasync") << (*light)["parts"].dump(2);
  // The workers timed every planted fdatasync themselves, over their own measure windows.
  double planted_ns = 0, planted_calls = 0, window_ns = 0;
  for (const auto& e : manifest["runs"]) {
    if (e["trace"] != "full") continue;
    const std::string run_dir = bundle + "/runs/" + e["id"].get<std::string>();
    const json result = read_json(run_dir + "/raw/worker-0.result.json");
    planted_ns += std::stod(result["plant"]["fdatasync_ns"].get<std::string>());
    planted_calls += result["plant"]["calls"].get<double>();
    const json run_json = read_json(run_dir + "/run.json");
    for (const auto& w : run_json["workers"]) {
      window_ns += std::stod(w["measure_end_ns"].get<std::string>()) -
                   std::stod(w["measure_start_ns"].get<std::string>());
    }
  }
  ASSERT_GT(window_ns, 0);
  const json& top = (*full)["parts"][0];
  // What the worker's timing holds and the tracer's does not: its clock reads and DTrace's own
  // probes around each call (under 10 us a call in full detail, bench/syscall_overhead.cpp).
  const double slack = 0.005 + planted_calls * 10'000.0 / window_ns;
  EXPECT_GE(planted_ns / window_ns, top["share_low"].get<double>() - slack) << top.dump();
  EXPECT_LE(planted_ns / window_ns, top["share_high"].get<double>() + slack) << top.dump();
}

// Full detail's on-CPU samples from DTrace's profile provider: a writer that busy-waits 1 ms per
// operation in plant_busy_wait has that function named first, inside a statement's span, and the
// CPU time its samples stand for agrees with the worker's own thread-CPU clock.
TEST(RunDtrace, ProfileSamplesNameAPlantedBusyFunctionAndAgreeWithItsCpuClock) {
  if (const auto found = host_caps::find_dtrace(); found.path.empty()) {
    GTEST_SKIP() << found.reason;
  }
  TempDir dir;
  RunInvocation inv;
  inv.matrix = "attribution-busy.yaml";
  inv.name = "busy-dtrace";
  inv.traced = true;
  inv.args = {"--syscall-backend", "dtrace"};
  const auto run = run_jbench_run(dir, inv, unique_tag());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string bundle = dir.path() + "/out/busy-dtrace";
  const auto r = run_process({JBENCH_BINARY, "report", bundle, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = json::parse(r.out);
  const json* full = cell_of(report, "full");
  ASSERT_NE(full, nullptr) << report.dump(2);
  const json& samples = (*full)["cpu_samples"];
  ASSERT_TRUE(samples.is_object() && !samples["rows"].empty()) << full->dump(2);
  EXPECT_EQ(samples["hz"], 99);
  EXPECT_NE(samples["rows"][0]["function"].get<std::string>().find("plant_busy_wait"),
            std::string::npos)
      << samples["rows"].dump(2);
  double sampled_ns_per_op = 0;
  for (const auto& row : samples["rows"]) {
    if (row["function"].get<std::string>().find("plant_busy_wait") == std::string::npos) continue;
    EXPECT_TRUE(row["span"].get<std::string>().starts_with("statement:")) << row.dump();
    sampled_ns_per_op += row["ns_per_op"].get<double>();
  }
  double cpu_ns = 0;
  const json manifest = read_json(bundle + "/manifest.json");
  for (const auto& e : manifest["runs"]) {
    if (e["trace"] != "full") continue;
    const json result =
        read_json(bundle + "/runs/" + e["id"].get<std::string>() + "/raw/worker-0.result.json");
    cpu_ns += std::stod(result["plant_delay"]["cpu_ns"].get<std::string>());
  }
  const double ops =
      (*full)["operations_per_run"].get<double>() * (*full)["repetitions"].get<double>();
  ASSERT_GT(ops, 0);
  // n samples ~ Poisson: 4 standard errors of a count of n, plus the clock reads the function's
  // rows omit (as for the compiled tracer's samples, run_attribution_test.cpp).
  const double n = sampled_ns_per_op * ops * samples["hz"].get<double>() / 1e9;
  ASSERT_GT(n, 50) << "too few samples to judge: " << samples.dump(2);
  EXPECT_NEAR(sampled_ns_per_op / (cpu_ns / ops), 1.0, 4.0 / std::sqrt(n) + 0.10);
}

}  // namespace
}  // namespace jbench::test
