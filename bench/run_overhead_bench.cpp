// The harness's own cost per run: spawn a cohort, register every incarnation, configure it,
// fire the canary, release it through the barrier and tear it down — with the workers doing
// one operation each, so what is timed is the harness and the workers' start-up and exit.
// Goal (issue: jbench run): under 50 ms for 32 workers.
//
// Each iteration is a real `run_session` of one run; the time reported is read back from the
// bundle's run.json boundaries: (warmup_start - startup_start) + (measure_start - warmup_end)
// + (teardown_end - measure_end). Noise sampling is switched off (it sits outside those
// boundaries anyway). Counters split the three parts and give the harness's own CPU time
// (user + system) spent in start-up and teardown.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "jbench/matrix/load.h"
#include "jbench/plan/plan.h"
#include "jbench/run/session.h"

namespace jbench {
namespace {

namespace fs = std::filesystem;

Matrix cohort_matrix(int workers) {
  const std::string yaml =
      "version: 1\nname: overhead\nseed: 5\nrepetitions: 1\nworkload: {kind: sqlite}\n"
      "phases: {warmup: {operations: 0}, measure: {operations: 1}}\n"
      "limits: {max_workers: 1024, run_timeout_s: 60, output_mib: 64}\n"
      "axes:\n  workers: [" +
      std::to_string(workers) +
      "]\n  connection: [persistent]\n"
      "  lane: [reader]\n  dataset: [{name: tiny, rows: 100, row_bytes: 16, page_cache_kib: "
      "1024}]\n";
  auto loaded = parse_matrix(yaml, "overhead.yaml");
  if (!loaded.matrix) std::abort();
  return *loaded.matrix;
}

std::uint64_t ns_at(const nlohmann::json& b, const char* key) {
  return std::stoull(b[key].get<std::string>());
}

void BM_CohortOverhead(benchmark::State& state) {
  const int workers = static_cast<int>(state.range(0));
  const Matrix matrix = cohort_matrix(workers);
  const Plan plan = make_plan(matrix, {}, HostResources{2, 16384});
  const fs::path out = fs::temp_directory_path() / ("jbench-bench-" + std::to_string(getpid()));
  double startup_ms = 0, barrier_ms = 0, teardown_ms = 0, harness_cpu_ms = 0;
  int n = 0;
  std::ostringstream sink;
  for (auto _ : state) {
    SessionOptions options;
    options.out_dir = out.string();
    options.bundle_name = "b" + std::to_string(n);
    options.noise_window_ms = 0;
    const Result<SessionOutcome> outcome = run_session(plan, options, sink);
    if (!outcome || !outcome->complete) {
      state.SkipWithError(
          ("the run failed: " + (outcome ? std::string() : outcome.error().message) + sink.str())
              .c_str());
      break;
    }
    std::ifstream in(outcome->bundle_path + "/runs/" + run_id(plan, plan.runs[0]) + "/run.json");
    const auto run = nlohmann::json::parse(in);
    const auto& b = run["boundaries"];
    const double s = double(ns_at(b, "warmup_start_ns") - ns_at(b, "startup_start_ns")) / 1e6;
    const double w = double(ns_at(b, "measure_start_ns") - ns_at(b, "warmup_end_ns")) / 1e6;
    const double t = double(ns_at(b, "teardown_end_ns") - ns_at(b, "measure_end_ns")) / 1e6;
    state.SetIterationTime((s + w + t) / 1e3);
    harness_cpu_ms += double(std::stoull(run["harness_cpu"]["startup_ns"].get<std::string>()) +
                             std::stoull(run["harness_cpu"]["teardown_ns"].get<std::string>())) /
                      1e6;
    startup_ms += s;
    barrier_ms += w;
    teardown_ms += t;
    ++n;
  }
  std::error_code ec;
  fs::remove_all(out, ec);
  if (n > 0) {
    state.counters["startup_ms"] = startup_ms / n;
    state.counters["barrier_ms"] = barrier_ms / n;
    state.counters["teardown_ms"] = teardown_ms / n;
    state.counters["harness_cpu_ms"] = harness_cpu_ms / n;
  }
}
BENCHMARK(BM_CohortOverhead)
    ->Arg(1)
    ->Arg(8)
    ->Arg(32)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(10);

}  // namespace
}  // namespace jbench

BENCHMARK_MAIN();
