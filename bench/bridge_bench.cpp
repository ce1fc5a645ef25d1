// Cost per call of the trace bridge, every mode side by side in one run:
//
//   build/bin/jbench-bench-bridge                  # taskset -c 0 for single-thread figures
//
// The process starts the bridge in full mode (a raw file in a temporary directory, removed at
// the end) and switches the mode flag per benchmark (bridge/src/bench_hooks.h), so off and
// no-consumer run exactly the code they run in a process started in those modes.
//
// Recorded modes measure the producer — what a traced thread pays: the background writer is
// held while they run and drains after each one, and every run fits in the ring (the `dropped`
// counter shows 0: nothing measured a drop instead of a record). BM_WriterDrain measures the
// writer on its own: what it costs to turn ring slots into JSON lines in the file.
//
// Floors, measured beside the bridge: BM_TwoEmptyCalls for off mode (two calls that only return),
// BM_TwoClockReads for a recorded span (its begin and its end read CLOCK_MONOTONIC once each;
// BM_ClockRead shows what one read costs on this host).
#include <benchmark/benchmark.h>
#include <stdlib.h>
#include <sys/sdt.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_hooks.h"
#include "jbench_bridge.h"

namespace {

namespace hooks = jb_detail::bench;

// Ring slots per thread for this process: a recorded run of kRecordedIterations spans (two
// slots each) fits, with room to spare for the warm-up events.
constexpr const char* kRingSlots = "524288";
constexpr benchmark::IterationCount kRecordedIterations = 200000;

// With --benchmark_repetitions=N: the best of N, the figure least disturbed by other work on a
// shared machine.
double best(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }

const char* mode_name(int mode) {
  switch (mode) {
    case JB_MODE_OFF:
      return "off";
    case JB_MODE_NO_CONSUMER:
      return "no-consumer";
    case JB_MODE_LIGHT:
      return "light";
    default:
      return "full";
  }
}

// The floor: a USDT probe with no semaphore and no consumer is one nop.
void BM_BareUsdtProbe(benchmark::State& state) {
  for (auto _ : state) {
    DTRACE_PROBE(jbench_bench, bare);
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_BareUsdtProbe)->ComputeStatistics("min", best);

// The floor of any entry point pair: two calls to functions that only return, kept out of line
// and out of interprocedural analysis, as a library's functions are. Off mode cannot cost less.
[[gnu::noinline, gnu::noipa]] uint64_t empty_begin(const char*, uint64_t) { return 0; }
[[gnu::noinline, gnu::noipa]] void empty_end(uint64_t) {}

void BM_TwoEmptyCalls(benchmark::State& state) {
  for (auto _ : state) {
    const uint64_t span = empty_begin("bench", 0);
    benchmark::DoNotOptimize(span);
    empty_end(span);
  }
}
BENCHMARK(BM_TwoEmptyCalls)->ComputeStatistics("min", best);

// What one timestamp of a recorded event costs here (vDSO; more on a VM's paravirtual clock).
void BM_ClockRead(benchmark::State& state) {
  for (auto _ : state) {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    benchmark::DoNotOptimize(ts);
  }
}
BENCHMARK(BM_ClockRead)->ComputeStatistics("min", best);

// The floor of a recorded span: its begin and its end are stamped once each.
void BM_TwoClockReads(benchmark::State& state) {
  for (auto _ : state) {
    timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    clock_gettime(CLOCK_MONOTONIC, &b);
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(b);
  }
}
BENCHMARK(BM_TwoClockReads)->ComputeStatistics("min", best);

// Before a recorded run: this thread's ring exists (its first event maps and faults it in, which
// a run must not measure).
void warm_up_thread(int mode) {
  hooks::set_mode(mode);
  if (mode >= JB_MODE_LIGHT) jb_phase("warm-up");
}

// After a recorded run: the rings are empty again for the next one; reports what was dropped.
void finish_recorded_run(benchmark::State& state, std::uint64_t dropped_before) {
  if (state.thread_index() != 0) return;
  state.counters["dropped"] = static_cast<double>(hooks::dropped() - dropped_before);
  hooks::drain_now();
}

// One span: jb_span_begin + jb_span_end with parent 0 (the thread's current span).
void BM_Span(benchmark::State& state) {
  const int mode = static_cast<int>(state.range(0));
  warm_up_thread(mode);
  const std::uint64_t dropped_before = hooks::dropped();
  for (auto _ : state) {
    const uint64_t span = jb_span_begin("bench", 0);
    benchmark::DoNotOptimize(span);
    jb_span_end(span);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(mode_name(mode));
  if (mode >= JB_MODE_LIGHT) finish_recorded_run(state, dropped_before);
}
BENCHMARK(BM_Span)
    ->ArgName("mode")
    ->Arg(JB_MODE_OFF)
    ->Arg(JB_MODE_NO_CONSUMER)
    ->Threads(1)
    ->Threads(2)
    ->UseRealTime()
    ->ComputeStatistics("min", best);
BENCHMARK(BM_Span)
    ->ArgName("mode")
    ->Arg(JB_MODE_FULL)
    ->Iterations(kRecordedIterations)
    ->Threads(1)
    ->Threads(2)
    ->UseRealTime()
    ->ComputeStatistics("min", best);

// A span with a name too long for one slot (40 bytes: it takes a second slot).
void BM_SpanLongName(benchmark::State& state) {
  warm_up_thread(JB_MODE_FULL);
  const std::uint64_t dropped_before = hooks::dropped();
  for (auto _ : state) {
    const uint64_t span = jb_span_begin("statement.execute.prepared.select.by_key", 0);
    benchmark::DoNotOptimize(span);
    jb_span_end(span);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel("full");
  finish_recorded_run(state, dropped_before);
}
BENCHMARK(BM_SpanLongName)
    ->Iterations(kRecordedIterations / 2)
    ->UseRealTime()
    ->ComputeStatistics("min", best);

// One counter: a single recorded event with a short name.
void BM_Counter(benchmark::State& state) {
  warm_up_thread(JB_MODE_FULL);
  const std::uint64_t dropped_before = hooks::dropped();
  for (auto _ : state) jb_counter("bench", 1);
  state.SetItemsProcessed(state.iterations());
  state.SetLabel("full");
  finish_recorded_run(state, dropped_before);
}
BENCHMARK(BM_Counter)
    ->Iterations(kRecordedIterations)
    ->UseRealTime()
    ->ComputeStatistics("min", best);

// The writer: encoding ring slots as JSON lines and appending them to the file, per event.
void BM_WriterDrain(benchmark::State& state) {
  constexpr int kSpansPerPass = 20000;
  warm_up_thread(JB_MODE_FULL);
  hooks::drain_now();
  for (auto _ : state) {
    state.PauseTiming();
    for (int i = 0; i < kSpansPerPass; ++i) jb_span_end(jb_span_begin("bench", 0));
    state.ResumeTiming();
    hooks::drain_now();
  }
  state.SetItemsProcessed(state.iterations() * 2 * kSpansPerPass);
  state.SetLabel("events");
}
BENCHMARK(BM_WriterDrain)->Iterations(20)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  char dir[] = "/tmp/jbench-bench-bridge.XXXXXX";
  if (!mkdtemp(dir)) {
    std::perror("jbench-bench-bridge: mkdtemp");
    return 3;
  }
  const std::string out = std::string(dir) + "/bench.events.jsonl";
  setenv("JBENCH_BRIDGE_MODE", "full", 1);
  setenv("JBENCH_BRIDGE_OUT", out.c_str(), 1);
  setenv("JBENCH_BRIDGE_BUFFER", kRingSlots, 1);
  setenv("JBENCH_RUN_ID", "jbench-bench-bridge", 1);
  if (jb_init_from_env() != 0) return 3;
  hooks::hold_writer(true);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  hooks::hold_writer(false);
  jb_shutdown();
  unlink(out.c_str());
  rmdir(dir);
  return 0;
}
