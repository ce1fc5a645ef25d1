// The `configure` message of protocol v1, parsed and validated (docs/worker-protocol.md).
//
// Validation is strict because a silently ignored setting is a measurement of something else:
// unknown keys, wrong types, out-of-range values and read_ratio on a non-mixed lane are all
// errors, and every problem is reported (not just the first), each with its key path.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jbench::sqlite_workload {

enum class Lane { writer, reader, mixed };
enum class ConnectionMode { cold, persistent };
enum class Synchronous { off, normal, full, extra };
// Whether count_above_mean_weight reuses the value of its scalar subquery (subquery_cache.h):
// never; inside the explicit transaction that computed it; or for the connection's whole life,
// which is wrong once `groups` changes and is there to show that the oracle catches it.
enum class SubqueryCachePolicy { off, transaction, connection };

std::string_view to_string(Lane lane);
std::string_view to_string(ConnectionMode mode);
std::string_view to_string(Synchronous sync);
std::string_view to_string(SubqueryCachePolicy policy);
// "off", "transaction" or "connection"; nullopt for any other name.
std::optional<SubqueryCachePolicy> subquery_cache_policy_named(std::string_view name);

struct PhaseSpec {
  enum class Kind { duration, operations };
  Kind kind = Kind::operations;
  std::uint64_t amount = 0;  // milliseconds for duration, counted operations otherwise
};

struct WorkloadParams {
  Synchronous synchronous = Synchronous::full;
  std::uint32_t ops_per_transaction = 1;
  std::uint32_t busy_timeout_ms = 0;
  // Probability that a transaction reads. Given only for the mixed lane; the writer lane
  // behaves as 0 and the reader lane as 1.
  double read_ratio = 0.0;
  std::uint32_t page_cache_kib = 0;
  // A plain file name (jbench/common/file_name.h) beside `db`: every write transaction appends
  // one record to it and fdatasyncs it (plant.h). Absent: nothing is planted.
  std::optional<std::string> plant_fsync_file;
  // Nanoseconds of busy waiting added to every operation, inside its latency: a slowdown of
  // known size for checking comparisons (transaction.cpp). 0: none.
  std::uint64_t plant_delay_ns = 0;
  // Nanoseconds every operation sleeps (clock_nanosleep), inside its latency and its statement's
  // span: a wait off the CPU of known length, for checking that a profile names it. 0: none.
  std::uint64_t plant_sleep_ns = 0;
  // Iterations of a fixed arithmetic loop added to every operation, inside its latency: a cost
  // of known size in instructions, the same on every machine, for checking counted comparisons
  // (docs/trace-modes.md, "counted"). 0: none.
  std::uint64_t plant_work_loops = 0;
  // malloc calls (64 bytes, each freed at once) added to every operation, inside its latency: an
  // allocation count of known size for checking counted comparisons. 0: none.
  std::uint64_t plant_allocations = 0;
  SubqueryCachePolicy subquery_cache = SubqueryCachePolicy::off;
};

struct WorkerConfig {
  std::uint32_t worker_index = 0;
  std::uint64_t seed = 0;
  Lane lane = Lane::writer;
  ConnectionMode connection = ConnectionMode::persistent;
  std::string db;
  WorkloadParams params;
  PhaseSpec warmup;
  PhaseSpec measure;
};

// Limits, here so the documentation and the tests quote the same numbers.
inline constexpr std::uint32_t kMaxOpsPerTransaction = 100'000;
inline constexpr std::uint32_t kMaxBusyTimeoutMs = 60'000;
inline constexpr std::uint32_t kMaxPageCacheKib = 16u << 20;  // 16 GiB
inline constexpr std::uint64_t kMaxDurationMs = 86'400'000;   // a day
inline constexpr std::uint64_t kMaxOperations = 1'000'000'000'000;
inline constexpr std::uint64_t kMaxPlantNs = 10'000'000;          // plant_delay_ns, plant_sleep_ns
inline constexpr std::uint64_t kMaxPlantWorkLoops = 100'000'000;  // plant_work_loops
inline constexpr std::uint64_t kMaxPlantAllocations = 1'000'000;  // plant_allocations

struct ConfigParse {
  std::optional<WorkerConfig> config;
  std::vector<std::string> errors;  // "params.ops_per_transaction: must be an integer in 1..100000"
};

ConfigParse parse_configure(const nlohmann::json& message);

// What `jbench-sqlite-worker describe` prints (docs/worker-protocol.md, "describe"): the params
// parse_configure takes, with its limits, and the defaults a matrix that leaves them out gets.
nlohmann::json describe_message();

}  // namespace jbench::sqlite_workload
