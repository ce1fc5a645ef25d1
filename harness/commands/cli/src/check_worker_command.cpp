// `jbench check-worker [--lane L] [--connection C] -- COMMAND...`: the conformance pass an engine
// author runs before writing a matrix for their worker (jbench/check_worker/check_worker.h).
#include <fmt/format.h>
#include <stdlib.h>

#include <filesystem>
#include <iostream>
#include <memory>

#include "commands.h"
#include "jbench/check_worker/check_worker.h"
#include "jbench/cli/cli.h"

namespace jbench::cli {
namespace {

int run_check_worker(check_worker::CheckOptions& o) {
  char pattern[] = "/tmp/jbench-check-worker-XXXXXX";
  const char* dir = mkdtemp(pattern);
  if (!dir) {
    std::cerr << "jbench: error: cannot create a folder for the dataset in /tmp\n";
    return kExitInternal;
  }
  o.work_dir = dir;
  std::cout << fmt::format("checking: {}\n", fmt::join(o.command, " "));
  std::size_t failed = 0;
  const auto steps = check_worker::check_worker(o, [&](const check_worker::CheckStep& s) {
    const char* verdict = s.passed ? "ok  " : s.skipped ? "skip" : "FAIL";
    failed += !s.passed && !s.skipped;
    std::cout << fmt::format("  {} {:<14}{}\n", verdict, s.rule, s.detail) << std::flush;
  });
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  std::size_t skipped = 0;
  for (const auto& s : steps) skipped += s.skipped;
  std::cout << fmt::format("{} of {} rules hold{}{}\n", steps.size() - failed - skipped,
                           steps.size(), failed ? fmt::format(", {} broken", failed) : "",
                           skipped ? fmt::format(", {} not run", skipped) : "");
  return failed || skipped ? kExitCheckFailed : kExitOk;
}

}  // namespace

Action add_check_worker_command(CLI::App& app) {
  auto o = std::make_shared<check_worker::CheckOptions>();
  app.add_option("command", o->command,
                 "the worker's program (a path, or a name on PATH) and its arguments, after --")
      ->required();
  app.add_option("--lane", o->lane, "the lane the session runs (default: mixed)")
      ->check(CLI::IsMember({"writer", "reader", "mixed"}));
  app.add_option("--connection", o->connection,
                 "the connection setting it runs with (default: persistent)")
      ->check(CLI::IsMember({"persistent", "cold"}));
  app.footer(
      "Walks the worker protocol (docs/worker-protocol.md) against the real program, one rule a "
      "line: describe, build-dataset, hello, ready, canary, warmup, measure, result, bye, "
      "bad-request, eof. A broken rule says what was seen; the steps after it in the same "
      "session are not run.\n"
      "Exit codes: 0 every rule holds, 1 a rule is broken (or could not be checked), 2 bad "
      "usage.");
  return [o] { return run_check_worker(*o); };
}

}  // namespace jbench::cli
