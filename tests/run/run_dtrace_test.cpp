// `jbench run --syscall-backend dtrace` on the planted-fdatasync matrix, under a real DTrace
// (label `dtrace`; skipped, saying why, where none is found): the bundle validates, every traced
// run's syscall entry names DTrace, and `jbench report` names the planted fdatasync first in both
// traced modes, its full-mode share agreeing with the workers' own timing of it, as it does for
// the compiled tracer's bundles (run_attribution_test.cpp).
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace jbench::test
