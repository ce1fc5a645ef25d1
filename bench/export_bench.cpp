// `jbench export --format chrome-json` on a full-mode run's syscall records: events per second
// of the whole conversion (one pass when run.json allows it, docs/export.md; `one_pass` says
// whether it did) and its peak RSS, which must not grow with the records. Goal: at least 1
// million events a second.
//
// The bundle is generated once, in a temporary directory: the least manifest.json,
// validation.json and run.json an export reads (with the collector's `records`, as a real
// run.json has), and raw/syscall.events.jsonl with records of
// the shape the compiled tracer writes (copied from a real bundle's line: the same keys, in
// the same order, a bundle-length path), from a worker's main thread and its bridge writer.
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "jbench/bundle/sha256sums.h"
#include "jbench/export/export.h"

namespace jbench {
namespace {

namespace fs = std::filesystem;

constexpr const char* kRun = "w2.persistent.writer.tiny.full.r1";

std::string make_bundle(std::uint64_t calls) {
  const fs::path dir =
      fs::temp_directory_path() / ("jbench-export-bench-" + std::to_string(getpid()));
  const fs::path run = dir / "runs" / kRun;
  fs::create_directories(run / "raw");
  std::ofstream(dir / "manifest.json")
      << R"({"status":"complete","runs":[{"id":")" << kRun << R"(","status":"ok"}]})";
  std::ofstream(dir / "validation.json") << R"({"valid":true,"finding_count":0})";
  std::ofstream(run / "run.json")
      << R"({"id":")" << kRun
      << R"(","cohort":{"members":[{"pid":29174,"start_time_ticks":"2866377","worker":0}]},)"
      << R"("boundaries":{"startup_start_ns":"28663776228131"},)"
      << R"("trace_mode":{"collectors":[{"name":"syscall","raw":"raw/syscall.events.jsonl",)"
      << R"("records":)" << calls << "}]}}";
  std::ofstream out(run / "raw" / "syscall.events.jsonl");
  out << R"({"backend":"libbpf","backend_version":"libbpf 1.1","boot_id":"b","clock":)"
      << R"("CLOCK_MONOTONIC","collector":"syscall","detail":"full","kind":"header","run_id":")"
      << kRun << R"(","schema":"jbench.events","schema_version":1,"units":{"t_ns":"ns"}})" << '\n';
  const char* names[] = {"pread64", "pwrite64", "fdatasync", "fcntl"};
  std::uint64_t seq[2] = {0, 0};
  std::uint64_t t = 28'663'815'517'499;
  for (std::uint64_t i = 0; i < calls; ++i) {
    const bool writer = i % 16 == 15;
    const char* name = writer ? "write" : names[i % 4];
    out << R"({"duration_ns":")" << 900 + i % 7000 << R"(","fd":)" << (writer ? 3 : 4)
        << R"(,"file":"254:0:10994181","kind":"record","path":"/work/bundles/.scratch-b/runs/)"
        << kRun << (writer ? R"(/raw/bridge/worker-0.events.jsonl")" : R"(/db.sqlite")")
        << R"(,"phase":"measure","pid":29174,)" << (name[1] == 'c' ? R"("request":"F_SETLK",)" : "")
        << R"("result":)" << (writer ? 341 : 4096) << R"(,"seq":")" << seq[writer]++
        << R"(","start_time_ticks":"2866377","syscall":")" << name << R"(","t_ns":")" << t
        << R"(",)" << (writer ? R"("thread_role":"bridge_writer",)" : "") << R"("tid":)"
        << (writer ? 29176 : 29174) << R"(,"type":"syscall"})" << '\n';
    t += 1500 + i % 3000;
  }
  out << R"({"dropped":0,"ended":{"code":0,"how":"exit"},"kind":"trailer","malformed":0,)"
      << R"("records":)" << calls << "}\n";
  out.close();
  // Sealed as a finished bundle is: the export checks every checksum, as part of its cost.
  std::string sums;
  const std::string run_dir = "runs/" + std::string(kRun);
  for (const std::string& rel :
       {std::string("manifest.json"), run_dir + "/raw/syscall.events.jsonl", run_dir + "/run.json",
        std::string("validation.json")}) {
    sums += sha256sums_line(*file_sha256((dir / rel).string()), rel);
  }
  std::ofstream(dir / kSha256SumsName) << sums;
  return dir.string();
}

void BM_ExportChromeJson(benchmark::State& state) {
  const std::string bundle = make_bundle(static_cast<std::uint64_t>(state.range(0)));
  exports::ExportOptions options;
  options.bundle = bundle;
  options.out = bundle + ".trace.json";  // beside the bundle: inside, it would be a stranger
  std::uint64_t events = 0;
  bool one_pass = false;
  for (auto _ : state) {
    std::ostringstream unused;
    const auto outcome = exports::export_bundle(options, unused);
    if (outcome.failure != exports::ExportFailure::none) {
      state.SkipWithError(outcome.message.c_str());
      break;
    }
    events = outcome.events_written;
    one_pass = outcome.one_pass;
  }
  state.counters["one_pass"] = one_pass ? 1 : 0;
  state.counters["events"] = static_cast<double>(events);
  state.counters["events_per_s"] =
      benchmark::Counter(static_cast<double>(events) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
  state.counters["raw_MB"] =
      static_cast<double>(fs::file_size(bundle + "/runs/" + kRun + "/raw/syscall.events.jsonl")) /
      1e6;
  state.counters["trace_MB"] = static_cast<double>(fs::file_size(options.out)) / 1e6;
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  state.counters["peak_rss_MB"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
  fs::remove_all(bundle);
  fs::remove(options.out);
}
// 100k and 1M calls: the peak RSS must stay the same.
BENCHMARK(BM_ExportChromeJson)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace jbench

BENCHMARK_MAIN();
