#include "jbench/matrix/workload_kinds.h"

#include <algorithm>

namespace jbench {
namespace {

constexpr std::array<std::string_view, 4> kSynchronousLevels = {"off", "normal", "full", "extra"};

const std::array<ParamSpec, 4> kSqliteParams = {{
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
     600000,
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
}};

const std::array<WorkloadKind, 1> kKinds = {{
    {"sqlite",
     "real libsqlite3 on a WAL database file, one connection per worker or one per transaction",
     kSqliteParams,
     {true, true, true, true, false}},
}};

}  // namespace

std::span<const WorkloadKind> workload_kinds() { return kKinds; }

const WorkloadKind* find_workload_kind(std::string_view name) {
  const auto it = std::find_if(kKinds.begin(), kKinds.end(),
                               [&](const WorkloadKind& k) { return k.name == name; });
  return it == kKinds.end() ? nullptr : &*it;
}

}  // namespace jbench
