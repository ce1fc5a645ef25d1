// Validating raw records. Goal (issue: jbench validate): at least 100 MB/s on one core, with
// memory independent of the file's size. The file is generated once: span records from two
// threads of one incarnation, as a collector writes them.
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "jbench/events/event_file.h"

namespace jbench {
namespace {

std::string make_file(std::uint64_t spans) {
  const std::string path = std::filesystem::temp_directory_path() /
                           ("jbench-events-bench-" + std::to_string(getpid()) + ".jsonl");
  std::ofstream out(path);
  out << R"({"kind":"header","schema":"jbench.events","schema_version":1,"collector":"spans",)"
      << R"("backend":"bridge","clock":"CLOCK_MONOTONIC","units":{"t_ns":"ns"},"run_id":"r1",)"
      << R"("boot_id":"b"})" << '\n';
  std::uint64_t seq[2] = {0, 0};
  std::uint64_t records = 0;
  for (std::uint64_t i = 0; i < spans; ++i) {
    const int tid = 100 + static_cast<int>(i % 2);
    for (const char* type : {"span_begin", "span_end"}) {
      out << R"({"kind":"record","type":")" << type << R"(","seq":")" << seq[i % 2]++
          << R"(","pid":100,"start_time_ticks":"4242","tid":)" << tid << R"(,"t_ns":")"
          << 1'000'000'000ULL + records * 100 << R"(","span_id":"s)" << i << '"'
          << (type[5] == 'b' ? R"(,"parent_id":null,"name":"statement")" : "") << "}\n";
      ++records;
    }
  }
  out << R"({"kind":"trailer","records":)" << records
      << R"(,"dropped":0,"malformed":0,"ended":{"how":"exit","code":0}})" << '\n';
  return path;
}

void BM_CheckEventFile(benchmark::State& state) {
  const std::string path = make_file(static_cast<std::uint64_t>(state.range(0)));
  const auto bytes = std::filesystem::file_size(path);
  const EventContext ctx{"r1", "b", {{100, 4242}}};
  for (auto _ : state) {
    const auto report = check_event_file(path, ctx);
    if (!report.ok()) state.SkipWithError(report.problems.front().message.c_str());
    benchmark::DoNotOptimize(report.records);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  state.counters["file_MB"] = static_cast<double>(bytes) / 1e6;
  state.counters["peak_rss_MB"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
  std::remove(path.c_str());
}
// 100k and 1M spans (about 34 MB and 340 MB): the peak RSS must not grow with the file.
BENCHMARK(BM_CheckEventFile)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace jbench

BENCHMARK_MAIN();
