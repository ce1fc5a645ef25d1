// Cost per call of the trace bridge. The mode is per process (jb_init_from_env reads it once),
// so run the binary once per mode:
//
//   build/bin/jbench-bench-bridge                                   # off
//   JBENCH_BRIDGE_MODE=no-consumer build/bin/jbench-bench-bridge
//   JBENCH_BRIDGE_MODE=full JBENCH_BRIDGE_OUT=/tmp/b.jsonl build/bin/jbench-bench-bridge
//
// Buffers do not wrap yet (docs/bridge.md), so the bridge cases run a fixed 8000 iterations:
// 16000 events per thread, under the default 16384, so full mode measures recording, not drops.
#include <benchmark/benchmark.h>
#include <sys/sdt.h>

#include "jbench_bridge.h"

namespace {

constexpr benchmark::IterationCount kIterations = 8000;

// The floor: a USDT probe with no semaphore and no consumer is one nop.
void BM_BareUsdtProbe(benchmark::State& state) {
  for (auto _ : state) {
    DTRACE_PROBE(jbench_bench, bare);
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_BareUsdtProbe);

// One span: jb_span_begin + jb_span_end, in whatever mode the environment chose.
void BM_SpanBeginEnd(benchmark::State& state) {
  for (auto _ : state) {
    const uint64_t span = jb_span_begin("bench", 0);
    benchmark::DoNotOptimize(span);
    jb_span_end(span);
  }
  state.SetLabel(jb_mode() == JB_MODE_OFF           ? "off"
                 : jb_mode() == JB_MODE_NO_CONSUMER ? "no-consumer"
                 : jb_mode() == JB_MODE_LIGHT       ? "light"
                                                    : "full");
}
BENCHMARK(BM_SpanBeginEnd)->Iterations(kIterations)->Threads(1)->Threads(2)->UseRealTime();

// One counter: the cheapest recorded event.
void BM_Counter(benchmark::State& state) {
  for (auto _ : state) jb_counter("bench", 1);
}
BENCHMARK(BM_Counter)->Iterations(kIterations);

}  // namespace

int main(int argc, char** argv) {
  if (jb_init_from_env() != 0) return 2;
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  jb_shutdown();
  return 0;
}
