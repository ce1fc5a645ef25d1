// Statements compared per second by the oracle (docs/oracle.md), on one generated stream over
// the workload's schema, side by side with what a user would otherwise do: run the same script
// through the sqlite3 shell twice and compare the outputs byte for byte (which neither
// normalizes row order nor knows an error from a row).
//
//   build/bin/jbench-bench-oracle      # items_per_second = statements compared per second
//
// Every iteration starts on fresh engines, so each replays the whole stream (schema included).
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "jbench/oracle/generator.h"
#include "jbench/oracle/process_target.h"
#include "jbench/oracle/runner.h"
#include "jbench/oracle/sqlite_target.h"
#include "jbench/proc/run_tool.h"

namespace {

using namespace jbench::oracle;

const Corpus& stream(std::size_t statements) {
  static std::map<std::size_t, Corpus> cache;
  auto it = cache.find(statements);
  if (it == cache.end()) it = cache.emplace(statements, generate_stream({42, statements})).first;
  return it->second;
}

SqliteTarget db(bool optimizer_off) {
  return std::move(SqliteTarget::open(":memory:", {}, optimizer_off)).value();
}

void BM_InProcess_vs_OptimizerOff(benchmark::State& state) {
  const Corpus& s = stream(static_cast<std::size_t>(state.range(0)));
  std::size_t compared = 0;
  for (auto _ : state) {
    SqliteTarget t = db(false);
    SqliteTarget o = db(true);
    RunReport r = run_corpus(s, t, o);
    if (!r.clean()) state.SkipWithError("a finding between two right engines");
    compared += r.statements_compared;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(compared));
}
BENCHMARK(BM_InProcess_vs_OptimizerOff)
    ->Arg(20000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3)
    ->UseRealTime();

void BM_InProcess_vs_InProcess(benchmark::State& state) {
  const Corpus& s = stream(static_cast<std::size_t>(state.range(0)));
  std::size_t compared = 0;
  for (auto _ : state) {
    SqliteTarget t = db(false);
    SqliteTarget o = db(false);
    RunReport r = run_corpus(s, t, o);
    if (!r.clean()) state.SkipWithError("a finding between two right engines");
    compared += r.statements_compared;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(compared));
}
BENCHMARK(BM_InProcess_vs_InProcess)
    ->Arg(20000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3)
    ->UseRealTime();

// The sqlite3 shell through the line protocol (jbench-oracle-sqlite3) against in-process SQLite:
// what an external engine costs per statement.
void BM_ShellEngine_vs_InProcess(benchmark::State& state) {
  const Corpus& s = stream(static_cast<std::size_t>(state.range(0)));
  std::size_t compared = 0;
  for (auto _ : state) {
    auto t = ProcessTarget::start({{JBENCH_ORACLE_SQLITE3_ADAPTER}, "", 10000, 10000});
    if (!t) {
      state.SkipWithError(t.error().message.c_str());
      return;
    }
    SqliteTarget o = db(false);
    RunReport r = run_corpus(s, *t, o);
    if (!r.clean()) state.SkipWithError("a finding between the shell and SQLite");
    compared += r.statements_compared;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(compared));
}
BENCHMARK(BM_ShellEngine_vs_InProcess)
    ->Arg(5000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3)
    ->UseRealTime();

// The stream as one shell script (parameters set with .param set), run twice, outputs compared
// with cmp: the do-it-yourself differential test.
void BM_ShellScriptTwice_cmp(benchmark::State& state) {
  const Corpus& s = stream(static_cast<std::size_t>(state.range(0)));
  std::string dir = "/tmp/jbench-bench-oracle-" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  {
    std::ofstream script(dir + "/s.sql");
    script << ".mode quote\n";
    for (const Record& r : s.records) {
      for (std::size_t i = 0; i < r.params.size(); ++i) {
        script << ".param set ?" << i + 1 << " " << to_sql_literal(r.params[i]) << "\n";
      }
      script << r.sql << ";\n";
    }
  }
  std::string cmd = "sqlite3 :memory: < " + dir + "/s.sql > " + dir +
                    "/a 2>&1; sqlite3 :memory: < " + dir + "/s.sql > " + dir + "/b 2>&1; cmp -s " +
                    dir + "/a " + dir + "/b";
  for (auto _ : state) {
    jbench::proc::ToolRun run =
        jbench::proc::run_to_completion({"/bin/sh", "-c", cmd}, std::nullopt, 600000);
    if (run.exit_code != 0) state.SkipWithError("the two shell runs differ or failed");
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * s.records.size()));
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_ShellScriptTwice_cmp)
    ->Arg(20000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
