// What `jbench merge` costs beyond copying: the check that N shards are one plan's and cover it
// (re-planning the matrix, each shard's share, every run's owner), for the SQLite matrix (864
// runs) and a 10,240-run one; and taking a run directory's files the merge's ways (hard links on
// one file system; else each file streamed, fsynced and renamed into place) beside
// std::filesystem::copy and `cp -r`, which do not sync.
// Run: build/bin/jbench-bench-merge
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "jbench/bundle/staging_bundle.h"
#include "jbench/matrix/load.h"
#include "jbench/merge/shard_check.h"
#include "jbench/plan/plan_output.h"
#include "jbench/plan/shard.h"

namespace jbench {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

std::string sqlite_matrix_text() {
  std::ifstream in(std::string(JBENCH_SOURCE_DIR) + "/matrices/sqlite.yaml");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// sqlite.yaml's axes with more worker counts and repetitions: 10,240 runs.
std::string large_matrix_text() {
  return "version: 1\nname: large\nseed: 5\nrepetitions: 20\nworkload: {kind: sqlite}\n"
         "phases: {warmup: {duration_ms: 100}, measure: {duration_ms: 1000}}\n"
         "limits: {max_workers: 64, run_timeout_s: 60, output_mib: 64}\n"
         "axes:\n  workers: [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 5, 7, 9, 10]\n"
         "  connection: [cold, persistent]\n  lane: [writer, mixed]\n  dataset:\n"
         "    - {name: below, rows: 1000, row_bytes: 100, page_cache_kib: 4096}\n"
         "    - {name: above, rows: 100000, row_bytes: 100, page_cache_kib: 512}\n"
         "  trace: [baseline, no-consumer, light, full]\n";
}

// The documents honest shards of the matrix leave, as far as the check reads them.
std::vector<merge::ShardFacts> shards_of(const std::string& text, std::uint32_t n) {
  const auto loaded = parse_matrix(text, "m.yaml");
  if (!loaded.matrix) std::abort();
  const Plan whole = make_plan(*loaded.matrix, {}, HostResources{64, 262144});
  std::vector<merge::ShardFacts> out;
  for (std::uint32_t k = 0; k < n; ++k) {
    const Plan shard = shard_plan(whole, {k, n});
    merge::ShardFacts f;
    f.source = "shard-" + std::to_string(k);
    f.matrix_text = text;
    f.plan = Json::parse(plan_to_json(shard));
    Json runs = Json::array();
    for (const Run& r : shard.runs) runs.push_back({{"id", run_id(shard, r)}, {"status", "ok"}});
    f.manifest = {{"matrix", {{"sha256", loaded.matrix->sha256}, {"overrides", Json::array()}}},
                  {"plan",
                   {{"shard", plan_shard_to_json(shard)},
                    {"filters", Json::array()},
                    {"host", {{"cores", 64}, {"memory_mib", 262144}}}}},
                  {"jbench", {{"version", "0"}}},
                  {"host", {{"cpu_model", "x"}}},
                  {"status", "complete"},
                  {"runs", runs}};
    out.push_back(std::move(f));
  }
  return out;
}

void check(benchmark::State& state, const std::string& text) {
  const auto shards = shards_of(text, static_cast<std::uint32_t>(state.range(0)));
  std::size_t runs = 0;
  for (auto _ : state) {
    const merge::ShardCheck c = merge::check_shards(shards);
    if (!c.findings.empty()) state.SkipWithError(c.findings.front().message.c_str());
    runs = c.plan ? c.plan->run_ids.size() : 0;
    benchmark::DoNotOptimize(runs);
  }
  state.counters["runs"] = static_cast<double>(runs);
  state.counters["runs_per_s"] =
      benchmark::Counter(static_cast<double>(runs), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_CheckShardsSqliteMatrix(benchmark::State& state) { check(state, sqlite_matrix_text()); }
BENCHMARK(BM_CheckShardsSqliteMatrix)->Arg(4)->Arg(16)->Unit(benchmark::kMillisecond);

void BM_CheckShardsLargeMatrix(benchmark::State& state) { check(state, large_matrix_text()); }
BENCHMARK(BM_CheckShardsLargeMatrix)->Arg(4)->Arg(64)->Unit(benchmark::kMillisecond);

// A run directory's worth of files: 40 files of 256 KiB (10 MiB), removed at exit by its own
// destructor (an atexit handler registered while it was built would run after it is destroyed).
struct SourceTree {
  std::string dir =
      fs::temp_directory_path() / ("jbench-bench-merge-" + std::to_string(::getpid()));
  SourceTree() {
    fs::create_directories(dir + "/raw");
    const std::string block(256 * 1024, 'x');
    for (int i = 0; i < 40; ++i) std::ofstream(dir + "/raw/f" + std::to_string(i)) << block;
  }
  ~SourceTree() {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  }
};

const std::string& source_tree() {
  static const SourceTree tree;
  return tree.dir;
}

void set_bytes(benchmark::State& state) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 40 * 256 * 1024);
}

// The run directory taken into a fresh staging bundle each time, as `jbench merge` takes runs.
void into_staging_bundle(benchmark::State& state, StagingBundle::TreeCopy how) {
  const std::string out = source_tree() + (how == StagingBundle::TreeCopy::link ? "-link" : "-out");
  int i = 0;
  for (auto _ : state) {
    auto b = StagingBundle::create(out, "b" + std::to_string(i++));
    if (!b) {
      state.SkipWithError(b.error().message.c_str());
      break;
    }
    StagingBundle& bundle = *b;
    if (auto s = bundle.copy_tree("runs/r", source_tree(), how); !s) {
      state.SkipWithError(s.error().message.c_str());
    }
  }
  set_bytes(state);
  fs::remove_all(out);
}

// On another file system: each file streamed, fsynced and renamed into place.
void BM_CopyTreeIntoStagingBundle(benchmark::State& state) {
  into_staging_bundle(state, StagingBundle::TreeCopy::copy);
}
BENCHMARK(BM_CopyTreeIntoStagingBundle)->Unit(benchmark::kMillisecond)->UseRealTime();

// What a merge does on one file system: hard links, no bytes copied.
void BM_LinkTreeIntoStagingBundle(benchmark::State& state) {
  into_staging_bundle(state, StagingBundle::TreeCopy::link);
}
BENCHMARK(BM_LinkTreeIntoStagingBundle)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_FilesystemCopyNoSync(benchmark::State& state) {
  const std::string out = source_tree() + "-fs";
  fs::create_directories(out);
  int i = 0;
  for (auto _ : state) {
    fs::copy(source_tree(), out + "/" + std::to_string(i++), fs::copy_options::recursive);
  }
  set_bytes(state);
  fs::remove_all(out);
}
BENCHMARK(BM_FilesystemCopyNoSync)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_CpRecursive(benchmark::State& state) {
  const std::string out = source_tree() + "-cp";
  fs::create_directories(out);
  int i = 0;
  for (auto _ : state) {
    const std::string cmd =
        "cp -r '" + source_tree() + "' '" + out + "/" + std::to_string(i++) + "'";
    if (std::system(cmd.c_str()) != 0) state.SkipWithError("cp failed");
  }
  set_bytes(state);
  fs::remove_all(out);
}
BENCHMARK(BM_CpRecursive)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace jbench

BENCHMARK_MAIN();
