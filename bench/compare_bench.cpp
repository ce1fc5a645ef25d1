// `jbench compare` on two bundles of 1,000 runs each, and `jbench history` over 365 nightly
// bundles (goals: < 2 s and < 10 s). The bundles are made from a checked-in one
// (tests/fixtures/compare/bundles/writer-a): its manifest, matrix and one run's run.json and
// summary.json, copied under many cells and repetitions with a seeded throughput, and sealed
// with SHA256SUMS — what compare and history read, at the sizes a nightly grows to.
//
//   build/bin/jbench-bench-compare
//   JBENCH_BENCH_KEEP=DIR build/bin/jbench-bench-compare   # makes the bundles in DIR and keeps
//                                                          # them, to time other tools on them
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "jbench/bundle/sha256sums.h"
#include "jbench/common/random.h"
#include "jbench/compare/compare.h"
#include "jbench/compare/history.h"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const std::string kFixture = JBENCH_SOURCE_DIR + "/tests/fixtures/compare/bundles/writer-a";

json read(const fs::path& p) {
  std::ifstream in(p);
  return json::parse(in);
}

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

// A sealed bundle of `cells` × `reps` runs whose throughput is `level` × (1 ± 3% noise).
void make_bundle(const fs::path& dir, std::size_t cells, std::size_t reps, double level,
                 std::uint64_t seed, const std::string& started) {
  json manifest = read(kFixture + "/manifest.json");
  const std::string run0 = manifest["runs"][0]["id"];
  json run = read(kFixture + "/runs/" + run0 + "/run.json");
  json summary = read(kFixture + "/runs/" + run0 + "/summary.json");
  json entry = manifest["runs"][0];
  manifest["runs"] = json::array();
  manifest["started_utc"] = started;
  jbench::SplitMix64 rng(seed);
  for (std::size_t c = 0; c < cells; ++c) {
    for (std::size_t r = 1; r <= reps; ++r) {
      const std::string id =
          "w1.persistent.writer.c" + std::to_string(c) + ".baseline.r" + std::to_string(r);
      const double noise = 1 + 0.03 * (static_cast<double>(rng.below(2001)) / 1000.0 - 1);
      summary["throughput_ops_per_s"] = level * noise;
      entry["id"] = id;
      entry["throughput_ops_per_s"] = level * noise;
      manifest["runs"].push_back(entry);
      write(dir / "runs" / id / "run.json", run.dump());
      write(dir / "runs" / id / "summary.json", summary.dump());
    }
  }
  write(dir / "manifest.json", manifest.dump());
  fs::copy_file(kFixture + "/matrix.yaml", dir / "matrix.yaml");
  fs::copy_file(kFixture + "/validation.json", dir / "validation.json");
  std::vector<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) files.push_back(fs::relative(e.path(), dir).string());
  }
  std::sort(files.begin(), files.end());
  std::string sums;
  for (const std::string& f : files) {
    sums += jbench::sha256sums_line(jbench::file_sha256((dir / f).string()).value(), f);
  }
  write(dir / jbench::kSha256SumsName, sums);
}

const char* kept() { return std::getenv("JBENCH_BENCH_KEEP"); }

const fs::path& scratch() {
  static const fs::path dir =
      kept() ? fs::path(kept())
             : fs::temp_directory_path() / ("jbench-bench-compare-" + std::to_string(getpid()));
  return dir;
}

void BM_Compare_1000_runs_each(benchmark::State& state) {
  const fs::path a = scratch() / "a", b = scratch() / "b";
  if (!fs::exists(a)) {
    make_bundle(a, 100, 10, 50000, 1, "2026-12-01T00:00:00Z");
    make_bundle(b, 100, 10, 50000, 2, "2026-12-02T00:00:00Z");
  }
  for (auto _ : state) {
    auto c = jbench::compare::compare_bundles(jbench::compare::read_compare_side(a.string()),
                                              jbench::compare::read_compare_side(b.string()), {});
    // 100 cells × throughput, p50, p99 and CPU time per operation.
    if (c.rows.size() != 400) {
      state.SkipWithError((c.summary + (c.invalid.empty() ? "" : ": " + c.invalid[0])).c_str());
    }
    benchmark::DoNotOptimize(c);
  }
}
BENCHMARK(BM_Compare_1000_runs_each)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

void BM_History_365_nights(benchmark::State& state) {
  const fs::path dir = scratch() / "nights";
  if (!fs::exists(dir)) {
    for (std::size_t n = 0; n < 365; ++n) {
      char started[32];
      std::snprintf(started, sizeof started, "2026-%02zu-%02zuT02:17:00Z", 1 + n / 31, 1 + n % 31);
      // A 10% drop from night 200 on.
      make_bundle(dir / ("nightly-" + std::to_string(1000 + n)), 4, 5, n < 200 ? 50000 : 45000,
                  n + 7, started);
    }
  }
  for (auto _ : state) {
    auto h = jbench::compare::read_history(dir.string(), {});
    if (h.bundles.size() != 365) state.SkipWithError("not every night was read");
    // The planted drop is found, at night 200, in every cell's throughput.
    std::size_t at_200 = 0;
    for (const auto& s : h.series) {
      for (const auto& c : s.changes)
        at_200 += c.bundle == 200 && s.metric == "throughput_ops_per_s";
    }
    if (at_200 != 4) state.SkipWithError("the drop at night 200 was not found in every cell");
    benchmark::DoNotOptimize(h);
  }
}
BENCHMARK(BM_History_365_nights)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  std::error_code ec;
  if (!kept()) fs::remove_all(scratch(), ec);
  return 0;
}
