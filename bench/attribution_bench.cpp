// The cost account's per-record cost: full-detail syscall records fed to an AccountBuilder
// (docs/attribution.md), with spans to charge them to, as `jbench report` does for each run.
// The whole report on a real 5-million-record bundle is bench/report/run.sh.
// Run: build/bin/jbench-bench-attribution
#include <benchmark/benchmark.h>

#include <array>
#include <string>

#include "jbench/attribution/account.h"

namespace {

using namespace jbench::attribution;

constexpr jbench::IncarnationId kWorker{4242, 77};

void BM_AccountFullRecords(benchmark::State& state) {
  const auto n = static_cast<std::uint64_t>(state.range(0));
  // A writer's mix: per transaction a lock, two WAL writes and a planted fdatasync.
  const std::array<std::pair<const char*, const char*>, 4> calls = {{{"fcntl", "db.sqlite-shm"},
                                                                     {"pwrite64", "db.sqlite-wal"},
                                                                     {"pwrite64", "db.sqlite-wal"},
                                                                     {"fdatasync", "plant.log"}}};
  for (auto _ : state) {
    RunAccount run;
    Incarnation inc;
    inc.pid = kWorker.pid;
    inc.start_time_ticks = kWorker.start_time_ticks;
    run.incarnations.push_back(inc);
    run.detail = CallDetail::full;
    PhaseWindows w;
    w.begin = {0, 1'000, 2'000, 100'000'000'000};
    w.end = {1'000, 2'000, 100'000'000'000, 100'000'001'000};
    AccountBuilder b(std::move(run), {w});
    const std::uint64_t txns = n / calls.size();
    for (std::uint64_t t = 0; t < txns; ++t) {
      b.add_span_begin(kWorker, 4242, std::to_string(t), "transaction:write", 2'000 + t * 1'000);
      b.add_span_end(kWorker, 4242, std::to_string(t), 2'000 + t * 1'000 + 900);
    }
    b.seal_spans();
    for (std::uint64_t i = 0; i < n; ++i) {
      CallRecord c;
      c.who = kWorker;
      c.tid = 4242;
      c.call = calls[i % calls.size()].first;
      c.path = calls[i % calls.size()].second;
      c.t_ns = 2'000 + (i / calls.size()) * 1'000 + (i % calls.size()) * 200;
      c.duration_ns = 150;
      b.add_call(c);
    }
    benchmark::DoNotOptimize(b.finish());
  }
  state.counters["records_per_s"] =
      benchmark::Counter(static_cast<double>(n) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
}
BENCHMARK(BM_AccountFullRecords)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
