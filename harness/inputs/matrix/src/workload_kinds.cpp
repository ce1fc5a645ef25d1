#include "jbench/matrix/workload_kinds.h"

#include <algorithm>

namespace jbench {
namespace {

constexpr std::array<std::string_view, 4> kSynchronousLevels = {"off", "normal", "full", "extra"};
constexpr std::array<std::string_view, 3> kSubqueryCachePolicies = {"off", "transaction",
                                                                    "connection"};

const std::array<ParamSpec, 10> kSqliteParams = {{
    {"synchronous", ParamSpec::Type::choice, 0, 0, kSynchronousLevels, std::string("normal"),
     "PRAGMA synchronous of every connection"},
    {"ops_per_transaction",
     ParamSpec::Type::integer,
     1,
     100000,
     {},
     std::int64_t{10},
     "operations inside one transaction"},
    {"busy_timeout_ms",
     ParamSpec::Type::integer,
     0,
     60000,
     {},
     std::int64_t{5000},
     "sqlite3_busy_timeout before SQLITE_BUSY is counted and retried"},
    {"read_ratio",
     ParamSpec::Type::number,
     0,
     1,
     {},
     0.8,
     "fraction of transactions that read, in the mixed lane (strictly between 0 and 1)"},
    // A known cost planted for checking an attribution report against ground truth
    // (docs/worker-protocol.md, "The fsync plant"); absent, nothing is planted.
    {"plant_fsync_file",
     ParamSpec::Type::file_name,
     0,
     0,
     {},
     std::monostate{},
     "a file beside the database: every write transaction appends 512 bytes to it and "
     "fdatasyncs it before COMMIT"},
    // A known delay per operation (a busy wait inside its latency), for checking that a
    // comparison sees a slowdown of known size (docs/compare.md); 0 plants nothing.
    {"plant_delay_ns",
     ParamSpec::Type::integer,
     0,
     10'000'000,
     {},
     std::int64_t{0},
     "nanoseconds of busy waiting added to every operation, inside its latency (0: none)"},
    // A known wait off the CPU per operation (a sleep inside its latency and span), for checking
    // that an attribution report names it (docs/attribution.md); 0 plants nothing.
    {"plant_sleep_ns",
     ParamSpec::Type::integer,
     0,
     10'000'000,
     {},
     std::int64_t{0},
     "nanoseconds every operation sleeps, inside its latency and its statement's span (0: none)"},
    // A known cost in instructions per operation, for checking that a counted comparison sees a
    // change of known size (docs/trace-modes.md, "counted"); 0 plants nothing.
    {"plant_work_loops",
     ParamSpec::Type::integer,
     0,
     100'000'000,
     {},
     std::int64_t{0},
     "iterations of a fixed arithmetic loop (a few instructions each) added to every operation, "
     "inside its latency (0: none)"},
    // A known number of allocation calls per operation, for checking that a counted comparison
    // sees allocations_per_op move by exactly that many (docs/trace-modes.md); 0 plants nothing.
    {"plant_allocations",
     ParamSpec::Type::integer,
     0,
     1'000'000,
     {},
     std::int64_t{0},
     "malloc calls (64 bytes each, freed at once) added to every operation, inside its latency "
     "(0: none)"},
    // An optimization candidate (docs/worker-protocol.md, params.subquery_cache); `connection`
    // is deliberately wrong, for showing that the oracle pass catches it.
    {"subquery_cache", ParamSpec::Type::choice, 0, 0, kSubqueryCachePolicies, std::string("off"),
     "reuse of count_above_mean_weight's scalar subquery value: off, transaction (inside the "
     "explicit transaction that computed it) or connection (never invalidated: wrong)"},
}};

// The Chez Scheme worker (docs/chez-worker.md). A "transaction" is a batch of operations under
// one bridge span; the dataset cell's rows and row_bytes size the live set every worker keeps.
const std::array<ParamSpec, 5> kChezParams = {{
    {"ops_per_transaction",
     ParamSpec::Type::integer,
     1,
     100000,
     {},
     std::int64_t{8},
     "operations in one batch, which is one bridge span"},
    {"read_ratio",
     ParamSpec::Type::number,
     0,
     1,
     {},
     0.8,
     "fraction of batches that read, in the mixed lane (strictly between 0 and 1)"},
    {"tree_nodes",
     ParamSpec::Type::integer,
     1,
     1000000,
     {},
     std::int64_t{512},
     "nodes of the short-lived search tree a tree_build read allocates"},
    {"alloc_sample_every",
     ParamSpec::Type::integer,
     0,
     1000000,
     {},
     std::int64_t{64},
     "every N-th operation reports its allocated bytes to jb_alloc_sample (0: none)"},
    {"collect_trip_kib",
     ParamSpec::Type::integer,
     64,
     1048576,
     {},
     std::int64_t{8192},
     "Chez's collect-trip-bytes in KiB: allocation between collection requests"},
}};

// Every kind needs the connection axis too: the runner sends each worker its value (the Chez
// worker accepts only "persistent").
const std::array<WorkloadKind, 2> kKinds = {{
    {"sqlite",
     "real libsqlite3 on a WAL database file, one connection per worker or one per transaction",
     kSqliteParams, kProtocolAxes},
    {"chez",
     "a Chez Scheme program that keeps a live set and allocates, with every collection reported "
     "through the trace bridge",
     kChezParams, kProtocolAxes},
}};

}  // namespace

std::span<const WorkloadKind> workload_kinds() { return kKinds; }

const WorkloadKind* find_workload_kind(std::string_view name) {
  const auto it = std::find_if(kKinds.begin(), kKinds.end(),
                               [&](const WorkloadKind& k) { return k.name == name; });
  return it == kKinds.end() ? nullptr : &*it;
}

const ParamSpec* find_param(const WorkloadKind& kind, std::string_view key) {
  for (const auto& spec : kind.params) {
    if (spec.key == key) return &spec;
  }
  return nullptr;
}

}  // namespace jbench
