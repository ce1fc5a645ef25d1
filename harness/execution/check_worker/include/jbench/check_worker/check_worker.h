// `jbench check-worker -- COMMAND...`: does a program speak the worker protocol
// (docs/worker-protocol.md) well enough to be measured? Each step is one rule of the protocol,
// run against the real program and named when broken:
//
//   describe       `COMMAND describe` prints one valid declaration and exits 0
//   build-dataset  `COMMAND build-dataset ...` reports its dataset and leaves the file
//   hello          the first line proves protocol 1, the spawned pid and a fresh runtime id
//   ready          `configure` (the declared defaults) is answered by `ready`
//   canary         the canary is the raw faccessat of /jbench-canary/<runtime_id>, ENOENT
//   warmup         `start` runs the warmup phase: `warmup_done` counts its operations
//   measure        `measure` runs the measure phase: `measure_done`, then `result`
//   result         the result follows its schema, counts what was asked, and adds up
//   bye            `exit` is answered by `bye` and exit code 0
//   bad-request    an unknown message gets an `error` line and exit code 2
//   eof            stdin closed before `configure` ends the worker with exit code 3
//
// Later steps of a session are not run once one fails (they would only repeat it).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace jbench::check_worker {

struct CheckOptions {
  std::vector<std::string> command;  // the worker's program (absolute or on PATH) and arguments
  std::string work_dir;              // an empty folder for the dataset; the caller removes it
  std::string lane = "mixed";
  std::string connection = "persistent";
  std::uint64_t rows = 1000;
  std::uint32_t row_bytes = 32;
  std::uint64_t page_cache_kib = 1024;
  std::uint64_t warmup_operations = 50;
  std::uint64_t measure_operations = 200;
  int step_timeout_ms = 20'000;  // a safety net per step, far above any real duration
};

struct CheckStep {
  std::string rule;  // one of the names above
  bool passed = false;
  bool skipped = false;  // not run: an earlier step of its session failed
  std::string detail;    // what was seen, or why it breaks the rule
};

// Runs every step, calling `on_step` as each ends. All steps, in order.
std::vector<CheckStep> check_worker(const CheckOptions& options,
                                    const std::function<void(const CheckStep&)>& on_step);

}  // namespace jbench::check_worker
