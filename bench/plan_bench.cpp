// Planning cost at scale. Goal (issue: foundation): a matrix of 1,000,000 runs plans in under 1 s
// and under 500 MB peak on one core. Peak memory is reported as the process's max RSS, which
// includes everything before it: run this benchmark alone (--benchmark_filter) for that figure.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "jbench/matrix/load.h"
#include "jbench/plan/plan.h"
#include "jbench/plan/plan_output.h"

namespace jbench {
namespace {

// 1000 worker counts x 2 connections x 3 lanes x 2 datasets x 4 trace modes x 21 repetitions
// = 1,008,000 runs, decoded by the real matrix parser.
std::string million_run_matrix() {
  std::string workers;
  for (int w = 1; w <= 1000; ++w) workers += (w > 1 ? ", " : "") + std::to_string(w);
  return "version: 1\nname: million\nseed: 1\nrepetitions: 21\nworkload: {kind: sqlite}\n"
         "phases: {warmup: {duration_ms: 100}, measure: {duration_ms: 1000}}\n"
         "limits: {max_workers: 1024, run_timeout_s: 60, output_mib: 64}\n"
         "axes:\n  workers: [" +
         workers +
         "]\n  connection: [cold, persistent]\n"
         "  lane: [writer, reader, mixed]\n  dataset:\n"
         "    - {name: below, rows: 1000, row_bytes: 100, page_cache_kib: 4096}\n"
         "    - {name: above, rows: 100000, row_bytes: 100, page_cache_kib: 512}\n"
         "  trace: [baseline, no-consumer, light, full]\n"
         "exclude:\n  - {workers: 1000, lane: mixed}\n";
}

const Matrix& matrix() {
  static const Matrix m = [] {
    auto loaded = parse_matrix(million_run_matrix(), "million.yaml");
    if (!loaded.matrix) {
      std::fputs(format_diagnostics(loaded.diagnostics).c_str(), stderr);
      std::abort();
    }
    return *loaded.matrix;
  }();
  return m;
}

double max_rss_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

void BM_PlanMillionRuns(benchmark::State& state) {
  const Matrix& m = matrix();
  std::size_t runs = 0;
  for (auto _ : state) {
    Plan plan = make_plan(m, {}, HostResources{1, 16384});
    runs = plan.runs.size();
    benchmark::DoNotOptimize(plan.runs.data());
  }
  state.counters["runs"] = static_cast<double>(runs);
  state.counters["peak_rss_MB"] = max_rss_mb();
}
BENCHMARK(BM_PlanMillionRuns)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

void BM_ParseMillionRunMatrix(benchmark::State& state) {
  const std::string text = million_run_matrix();
  for (auto _ : state) {
    auto loaded = parse_matrix(text, "million.yaml");
    benchmark::DoNotOptimize(loaded.matrix);
  }
}
BENCHMARK(BM_ParseMillionRunMatrix)->Unit(benchmark::kMillisecond);

void BM_PlanJsonMillionRuns(benchmark::State& state) {
  const Plan plan = make_plan(matrix(), {}, HostResources{1, 16384});
  for (auto _ : state) {
    std::ostringstream out;
    write_plan_json(plan, out);
    state.counters["json_MB"] = static_cast<double>(out.tellp()) / 1e6;
  }
  state.counters["peak_rss_MB"] = max_rss_mb();
}
BENCHMARK(BM_PlanJsonMillionRuns)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace jbench

BENCHMARK_MAIN();
