// Shared pieces of the SQLite worker tests: a temporary directory, dataset building, the
// configure message, and a driver that walks a real worker through protocol v1.
//
// Helpers throw std::runtime_error with the offending line when the worker says something
// unexpected; GoogleTest reports the exception as a failure of the test that called them.
#pragma once

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "temp_dir.h"
#include "worker_process.h"

namespace jbench::test {

using nlohmann::json;

// Generous: these bound a hang, they are not measurements.
inline constexpr std::chrono::seconds kTimeout{20};

// Absolute path of the jbench-sqlite-worker under test (set by CMake).
std::string worker_binary();

// `jbench-sqlite-worker build-dataset <args>`: every stdout line (parsed) and the exit status.
struct CommandRun {
  ExitStatus status;
  std::vector<json> lines;
};
CommandRun run_build_dataset(const std::vector<std::string>& args);

// Builds a dataset and returns its one "dataset" line; throws on any other outcome.
json build_dataset(const std::string& db, std::uint64_t rows, std::uint32_t row_bytes,
                   std::uint64_t seed);

struct WorkerOptions {
  std::uint32_t worker_index = 0;
  std::uint64_t seed = 42;
  std::string lane = "writer";
  std::string connection = "persistent";
  std::string synchronous = "normal";
  std::uint32_t ops_per_transaction = 4;
  std::uint32_t busy_timeout_ms = 1000;
  std::optional<double> read_ratio;  // only sent when set
  std::uint32_t page_cache_kib = 1024;
  std::optional<std::string> plant_fsync_file;  // only sent when set
  json warmup = {{"operations", 8}};
  json measure = {{"operations", 40}};
};
json configure_message(const std::string& db, const WorkerOptions& options);

// A temporary directory holding a small dataset (100 rows of 8 bytes, seed 1) at `db`, for tests
// of the session rather than of the data.
struct SmallDataset {
  SmallDataset();
  TempDir dir;
  std::string db;
};

// A `serve` worker driven one message at a time. The constructor reads its hello.
//
// The trace bridge's variables (JBENCH_BRIDGE_MODE, JBENCH_BRIDGE_OUT) are removed from the
// worker's environment, so a test runs the same whatever the developer's shell exports; `env`
// sets them (or anything else) for the tests that trace.
class Worker {
 public:
  explicit Worker(const EnvChanges& env = {});
  WorkerProcess& process() { return process_; }
  const json& hello() const { return hello_; }

  void send(const json& message);
  void send_raw(std::string_view line);
  // The next message; it must have type `type`.
  json expect(std::string_view type);
  // The worker must write nothing more and exit; returns how it exited.
  ExitStatus expect_exit();

 private:
  WorkerProcess process_;
  json hello_;
};

// Every message of a session, as far as it went.
struct Transcript {
  json hello, ready, canary_done, warmup_done, measure_done, result, bye;
  ExitStatus exit;
};

// Sends `configure`, then each barrier message in turn (canary, start, measure) until the worker
// has sent `last`: "ready", "canary_done", "warmup_done" or "result" (measure_done comes before
// it). Returns the worker's messages so far, hello included.
Transcript drive_until(Worker& worker, const json& configure, std::string_view last);

// Sends exit, expects bye, then the worker's exit; both land in `transcript`.
void end_session(Worker& worker, Transcript& transcript);

// Every message of a full run with `configure`, ending with exit and bye.
Transcript run_to_completion(const json& configure, const EnvChanges& env = {});

// A decimal-string ns field as a number; throws unless canonical.
std::uint64_t ns(const json& value);
// The count of a serialised histogram, after checking the document with histogram_from_json.
std::uint64_t histogram_count(const json& histogram);
// sum_ns of a serialised histogram (checked the same way).
std::uint64_t histogram_sum(const json& histogram);

// Checks that a `result` message agrees with itself (GoogleTest EXPECTs, no exception):
// per-type counts add up, each latency histogram holds exactly the counted operations, counted
// operations lie inside [t_start_ns, t_end_ns], and their summed latency fits in that window
// (one thread runs them one after another).
void expect_consistent_result(const json& result);

// Errors of the BUSY/LOCKED family (every extended form) in a result's "errors".
std::uint64_t busy_errors(const json& result);

// Runs `sql` on `db` with a connection of the test's own; throws on failure.
void exec_sql(const std::string& db, const std::string& sql);

// SELECT count(*) FROM items, from a connection of the test's own.
std::int64_t count_items(const std::string& db);

}  // namespace jbench::test
