#include "jbench/sqlite_workload/config.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>

#include "jbench/common/file_name.h"
#include "jbench/common/word_index.h"
#include "jbench/sqlite_workload/protocol.h"
#include "jbench/stats/decimal.h"

namespace jbench::sqlite_workload {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 3> kLanes = {"writer", "reader", "mixed"};
constexpr std::array<std::string_view, 2> kModes = {"cold", "persistent"};
constexpr std::array<std::string_view, 4> kSyncs = {"off", "normal", "full", "extra"};
constexpr std::array<std::string_view, 3> kCachePolicies = {"off", "transaction", "connection"};

// Collects problems with their key paths instead of stopping at the first.
class Checker {
 public:
  std::vector<std::string> errors;

  void fail(std::string_view path, std::string_view what) {
    errors.push_back(fmt::format("{}: {}", path, what));
  }

  // Every key of `obj` must be in `allowed`; every key in `required` must be present.
  bool keys(const json& obj, std::string_view path, std::initializer_list<std::string_view> allowed,
            std::initializer_list<std::string_view> required) {
    if (!obj.is_object()) {
      fail(path, "must be an object");
      return false;
    }
    for (const auto& [key, _] : obj.items()) {
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        fail(fmt::format("{}.{}", path, key), "unknown key");
      }
    }
    bool ok = true;
    for (auto key : required) {
      if (!obj.contains(key)) {
        fail(fmt::format("{}.{}", path, key), "missing");
        ok = false;
      }
    }
    return ok;
  }

  std::optional<std::uint64_t> integer(const json& v, std::string_view path, std::uint64_t lo,
                                       std::uint64_t hi) {
    // Booleans are not numbers here even though some JSON libraries coerce them.
    if (v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0)) {
      const auto n = v.get<std::uint64_t>();
      if (n >= lo && n <= hi) return n;
    }
    fail(path, fmt::format("must be an integer in {}..{}", lo, hi));
    return std::nullopt;
  }

  template <std::size_t N>
  std::optional<std::size_t> choice(const json& v, std::string_view path,
                                    const std::array<std::string_view, N>& names) {
    if (v.is_string()) {
      if (auto i = word_index(names, v.get_ref<const std::string&>())) return i;
    }
    fail(path, fmt::format("must be one of \"{}\"", fmt::join(names, "\", \"")));
    return std::nullopt;
  }

  std::optional<PhaseSpec> phase(const json& v, std::string_view path, std::uint64_t min) {
    if (!keys(v, path, {"duration_ms", "operations"}, {})) return std::nullopt;
    if (v.contains("duration_ms") == v.contains("operations")) {
      fail(path, "must hold exactly one of duration_ms or operations");
      return std::nullopt;
    }
    if (v.contains("duration_ms")) {
      auto ms = integer(v["duration_ms"], fmt::format("{}.duration_ms", path), min, kMaxDurationMs);
      if (ms) return PhaseSpec{PhaseSpec::Kind::duration, *ms};
    } else {
      auto ops = integer(v["operations"], fmt::format("{}.operations", path), min, kMaxOperations);
      if (ops) return PhaseSpec{PhaseSpec::Kind::operations, *ops};
    }
    return std::nullopt;
  }
};

}  // namespace

std::string_view to_string(Lane lane) { return kLanes[static_cast<std::size_t>(lane)]; }
std::string_view to_string(ConnectionMode mode) { return kModes[static_cast<std::size_t>(mode)]; }
std::string_view to_string(Synchronous sync) { return kSyncs[static_cast<std::size_t>(sync)]; }
std::string_view to_string(SubqueryCachePolicy policy) {
  return kCachePolicies[static_cast<std::size_t>(policy)];
}

std::optional<SubqueryCachePolicy> subquery_cache_policy_named(std::string_view name) {
  return word_enum<SubqueryCachePolicy>(kCachePolicies, name);
}

namespace {

// The planted costs per statement (docs/worker-protocol.md): what a test or a demonstration adds
// on purpose.
void parse_plants(Checker& c, const json& p, WorkloadParams& params) {
  if (p.contains("plant_delay_ns")) {
    if (auto v = c.integer(p["plant_delay_ns"], "params.plant_delay_ns", 0, kMaxPlantNs)) {
      params.plant_delay_ns = static_cast<std::uint64_t>(*v);
    }
  }
  if (p.contains("plant_work_loops")) {
    if (auto v =
            c.integer(p["plant_work_loops"], "params.plant_work_loops", 0, kMaxPlantWorkLoops)) {
      params.plant_work_loops = static_cast<std::uint64_t>(*v);
    }
  }
  if (p.contains("plant_allocations")) {
    if (auto v = c.integer(p["plant_allocations"], "params.plant_allocations", 0,
                           kMaxPlantAllocations)) {
      params.plant_allocations = static_cast<std::uint64_t>(*v);
    }
  }
  if (p.contains("plant_sleep_ns")) {
    if (auto v = c.integer(p["plant_sleep_ns"], "params.plant_sleep_ns", 0, kMaxPlantNs)) {
      params.plant_sleep_ns = static_cast<std::uint64_t>(*v);
    }
  }
}

// The planted fsync's file: a plain name, inside the run's directory.
void parse_plant_file(Checker& c, const json& p, WorkloadParams& params) {
  if (!p.contains("plant_fsync_file")) return;
  const json& f = p["plant_fsync_file"];
  if (!f.is_string()) {
    c.fail("params.plant_fsync_file", "must be a string, a plain file name");
  } else if (const Status plain = check_plain_file_name(f.get_ref<const std::string&>()); !plain) {
    c.fail("params.plant_fsync_file",
           fmt::format("not a plain file name: {}", plain.error().message));
  } else {
    params.plant_fsync_file = f.get<std::string>();
  }
}

// The workload's parameters; read_ratio belongs to the mixed lane alone (the reader's is 1, the
// writer's 0).
void parse_params(Checker& c, const json& p, const json& lane, WorkloadParams& params) {
  if (!c.keys(p, "params",
              {"synchronous", "ops_per_transaction", "busy_timeout_ms", "read_ratio",
               "page_cache_kib", "plant_fsync_file", "plant_delay_ns", "plant_sleep_ns",
               "plant_work_loops", "plant_allocations", "subquery_cache"},
              {"synchronous", "ops_per_transaction", "busy_timeout_ms", "page_cache_kib"})) {
    return;
  }
  if (auto v = c.choice(p["synchronous"], "params.synchronous", kSyncs)) {
    params.synchronous = static_cast<Synchronous>(*v);
  }
  if (auto v = c.integer(p["ops_per_transaction"], "params.ops_per_transaction", 1,
                         kMaxOpsPerTransaction)) {
    params.ops_per_transaction = static_cast<std::uint32_t>(*v);
  }
  if (auto v = c.integer(p["busy_timeout_ms"], "params.busy_timeout_ms", 0, kMaxBusyTimeoutMs)) {
    params.busy_timeout_ms = static_cast<std::uint32_t>(*v);
  }
  if (auto v = c.integer(p["page_cache_kib"], "params.page_cache_kib", 1, kMaxPageCacheKib)) {
    params.page_cache_kib = static_cast<std::uint32_t>(*v);
  }
  parse_plants(c, p, params);
  if (p.contains("subquery_cache")) {
    if (auto v = c.choice(p["subquery_cache"], "params.subquery_cache", kCachePolicies)) {
      params.subquery_cache = static_cast<SubqueryCachePolicy>(*v);
    }
  }
  parse_plant_file(c, p, params);
  if (lane == "mixed") {
    const json& r = p.contains("read_ratio") ? p["read_ratio"] : json();
    if (r.is_number() && r.get<double>() >= 0.0 && r.get<double>() <= 1.0) {
      params.read_ratio = r.get<double>();
    } else {
      c.fail("params.read_ratio", "the mixed lane needs a number in 0.0..1.0");
    }
  } else if (p.contains("read_ratio")) {
    c.fail("params.read_ratio", "applies only to the mixed lane; remove it");
  } else {
    params.read_ratio = lane == "reader" ? 1.0 : 0.0;
  }
}

}  // namespace

ConfigParse parse_configure(const json& m) {
  Checker c;
  WorkerConfig cfg;
  if (!c.keys(m, "configure",
              {"type", "worker_index", "seed", "lane", "connection", "db", "params", "phases"},
              {"type", "worker_index", "seed", "lane", "connection", "db", "params", "phases"})) {
    return {std::nullopt, std::move(c.errors)};
  }
  if (auto v = c.integer(m["worker_index"], "worker_index", 0, UINT32_MAX)) {
    cfg.worker_index = static_cast<std::uint32_t>(*v);
  }
  const auto seed = m["seed"].is_string()
                        ? stats::parse_decimal_u64(m["seed"].get_ref<const std::string&>())
                        : std::nullopt;
  if (seed) {
    cfg.seed = *seed;
  } else {
    c.fail("seed", "must be a uint64 as a canonical decimal string, e.g. \"42\"");
  }
  if (auto v = c.choice(m["lane"], "lane", kLanes)) cfg.lane = static_cast<Lane>(*v);
  if (auto v = c.choice(m["connection"], "connection", kModes)) {
    cfg.connection = static_cast<ConnectionMode>(*v);
  }
  if (m["db"].is_string() && m["db"].get_ref<const std::string&>().starts_with('/') &&
      m["db"].get_ref<const std::string&>().find('\0') == std::string::npos) {
    cfg.db = m["db"].get<std::string>();
  } else {
    c.fail("db", "must be an absolute path");
  }
  parse_params(c, m["params"], m["lane"], cfg.params);
  const json& ph = m["phases"];
  if (c.keys(ph, "phases", {"warmup", "measure"}, {"warmup", "measure"})) {
    if (auto v = c.phase(ph["warmup"], "phases.warmup", 0)) cfg.warmup = *v;
    if (auto v = c.phase(ph["measure"], "phases.measure", 1)) cfg.measure = *v;
  }
  if (!c.errors.empty()) return {std::nullopt, std::move(c.errors)};
  return {cfg, {}};
}

json describe_message() {
  const auto integer = [](const char* name, std::uint64_t max, std::uint64_t default_value,
                          const char* meaning) {
    return json{{"name", name}, {"type", "integer"},        {"min", 0},
                {"max", max},   {"default", default_value}, {"meaning", meaning}};
  };
  json ops = integer("ops_per_transaction", kMaxOpsPerTransaction, 10,
                     "operations inside one transaction");
  ops["min"] = 1;
  const json params = json::array({
      {{"name", "synchronous"},
       {"type", "choice"},
       {"choices", kSyncs},
       {"default", "normal"},
       {"meaning", "PRAGMA synchronous of every connection"}},
      ops,
      integer("busy_timeout_ms", kMaxBusyTimeoutMs, 5000,
              "sqlite3_busy_timeout before SQLITE_BUSY is counted and retried"),
      {{"name", "read_ratio"},
       {"type", "number"},
       {"min", 0},
       {"max", 1},
       {"default", 0.8},
       {"meaning", "fraction of transactions that read, in the mixed lane"}},
      {{"name", "plant_fsync_file"},
       {"type", "file_name"},
       {"meaning",
        "a file beside the database: every write transaction appends 512 bytes to it and "
        "fdatasyncs it before COMMIT"}},
      integer("plant_delay_ns", kMaxPlantNs, 0,
              "nanoseconds of busy waiting added to every operation, inside its latency"),
      integer("plant_sleep_ns", kMaxPlantNs, 0,
              "nanoseconds every operation sleeps, inside its latency and its statement's span"),
      integer("plant_work_loops", kMaxPlantWorkLoops, 0,
              "iterations of a fixed arithmetic loop added to every operation"),
      integer("plant_allocations", kMaxPlantAllocations, 0,
              "malloc calls (64 bytes, each freed at once) added to every operation"),
      {{"name", "subquery_cache"},
       {"type", "choice"},
       {"choices", kCachePolicies},
       {"default", "off"},
       {"meaning", "reuse of count_above_mean_weight's scalar subquery value"}},
  });
  return {{"type", "describe"}, {"protocol", kProtocolVersion},
          {"worker", "sqlite"}, {"meaning", "real libsqlite3 on a WAL database file"},
          {"params", params},   {"traits", {{"gc_events", false}, {"allocations", "native"}}}};
}

}  // namespace jbench::sqlite_workload
