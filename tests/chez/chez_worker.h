// Driving the real Chez worker (jbench-chez-worker, docs/chez-worker.md) in tests: its dataset,
// its configure message, and a session walked one protocol message at a time.
//
//   ChezDataset data(2000, 32, 7);                 // build-dataset into a temporary directory
//   ChezOptions o;  o.lane = "mixed";  o.read_ratio = 0.5;
//   Session s = run_session(configure_message(data.db, o));
//   EXPECT_EQ(s.result["status"], "ok");
//
// Every process runs under WorkerProcess (tests/workloads/worker_process.h): it cannot outlive
// the test, and every wait is bounded. Helpers throw std::runtime_error with the offending line
// when the worker says something unexpected; GoogleTest reports that as a failure.
#pragma once

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "build_paths.h"
#include "temp_dir.h"
#include "worker_process.h"

namespace jbench::test {

using nlohmann::json;

// Generous: these bound a hang on a loaded machine, they are not measurements.
inline constexpr std::chrono::seconds kChezTimeout{60};

std::string chez_worker_binary();  // bin/jbench-chez-worker of the build under test
std::string jbench_binary();       // bin/jbench

// `jbench-chez-worker ARGS...` with `stdin_text` as its whole input and no bridge variables:
// its stdout lines (parsed), its stderr and how it exited.
struct CommandRun {
  ExitStatus status;
  std::vector<json> lines;
  std::string out;
  std::string err;
};
CommandRun run_chez_command(const std::vector<std::string>& args,
                            const std::string& stdin_text = "");

// A dataset in a temporary directory of its own; `report` is the build's "dataset" line.
struct ChezDataset {
  ChezDataset(std::uint64_t rows, std::uint32_t row_bytes, std::uint64_t seed);
  TempDir dir;
  std::string db;
  json report;
};

struct ChezOptions {
  std::uint32_t worker_index = 0;
  std::uint64_t seed = 42;
  std::string lane = "writer";
  std::string connection = "persistent";
  std::uint32_t ops_per_transaction = 4;
  std::optional<double> read_ratio;  // sent only when set
  std::uint32_t tree_nodes = 64;
  std::uint32_t alloc_sample_every = 16;
  std::uint32_t collect_trip_kib = 256;
  std::uint32_t page_cache_kib = 1024;
  json warmup = {{"operations", 40}};
  json measure = {{"operations", 400}};
};
json configure_message(const std::string& db, const ChezOptions& options);

// The bridge variables of a test's worker: unset unless given, so the environment of whoever
// runs the tests cannot turn tracing on behind their back.
EnvChanges bridge_env(const std::string& mode = "", const std::string& out = "",
                      const std::string& run_id = "");

// A `serve` worker. The constructor reads its hello.
class ChezWorker {
 public:
  explicit ChezWorker(const EnvChanges& env = bridge_env(), const std::string& stderr_path = "");
  WorkerProcess& process() { return process_; }
  const json& hello() const { return hello_; }

  void send(const json& message);
  void send_raw(std::string_view line);
  json expect(std::string_view type);  // the next message, which must have this type
  ExitStatus expect_exit();            // nothing more on stdout, then the exit

 private:
  WorkerProcess process_;
  json hello_;
};

// Every message of a session.
struct Session {
  json hello, ready, canary_done, warmup_done, measure_done, result, bye;
  ExitStatus exit;
};
// Configure .. result on `w` (which has said hello).
Session drive_to_result(ChezWorker& w, const json& configure);
// exit -> bye -> exit status.
void end_session(ChezWorker& w, Session& s);
Session run_session(const json& configure, const EnvChanges& env = bridge_env());

std::uint64_t ns(const json& decimal);  // a canonical decimal string; throws otherwise

// No process of the group `pgid` is left (zombies aside): the worker forked nothing that
// outlived it.
bool process_group_empty(int pgid);

}  // namespace jbench::test
