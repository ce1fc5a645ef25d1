// The worker's SQL, the operation types results are reported under, and the classification of
// each statement from SQLite's own EXPLAIN QUERY PLAN.
//
// A query's op type is decided by what SQLite says it will do, not by the query's name: a query
// whose plan shows "CORRELATED SCALAR SUBQUERY n" is a scalar_correlated operation, one showing
// "SCALAR SUBQUERY n" is scalar_uncorrelated, and one with neither keeps its plain type
// (point_lookup or range_scan for reads). If a future SQLite flattens a subquery away, the
// counts move to the type that really ran instead of lying under the old label.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/sqlite_workload/sqlite_db.h"

namespace jbench::sqlite_workload {

enum class OpType : std::uint8_t {
  insert,
  update,
  point_lookup,
  range_scan,
  scalar_correlated,
  scalar_uncorrelated,
};
inline constexpr std::size_t kOpTypeCount = 6;
std::string_view to_string(OpType type);
// The class of plan an operation type stands for, as trace spans name it: the scalar subquery
// in SQLite's own words for the subquery types (correlated_scalar_subquery,
// uncorrelated_scalar_subquery), else the plain type (insert, update, point_lookup, range_scan).
std::string_view plan_class(OpType type);
inline bool is_write(OpType type) { return type == OpType::insert || type == OpType::update; }

// Every statement the workload runs (transaction control aside), in a fixed order.
enum class Query : std::uint8_t {
  insert_item,              // (grp, val, payload)
  update_val,               // (val, id)
  lookup_by_id,             // (id)
  scan_grp_range,           // (grp_lo, grp_hi)
  weight_by_id_range,       // (id_lo, id_hi), with the group weight of each row
  count_above_mean_weight,  // (grp), rows whose val exceeds the mean group weight
};
inline constexpr std::size_t kQueryCount = 6;

struct QueryInfo {
  std::string_view name;
  std::string_view sql;
  OpType plain_type;  // the type when the plan shows no scalar subquery
};
const QueryInfo& query_info(Query query);

enum class SubqueryClass { none, uncorrelated, correlated };
std::string_view to_string(SubqueryClass cls);

// From the `detail` lines of EXPLAIN QUERY PLAN (SQLite 3.40 wording). Correlated wins when a
// statement has both kinds.
SubqueryClass classify_plan(const std::vector<std::string>& details);

struct ClassifiedQuery {
  OpType type = OpType::insert;
  SubqueryClass subquery = SubqueryClass::none;
  std::vector<std::string> plan;
};
using QueryCatalog = std::array<ClassifiedQuery, kQueryCount>;

// Explains and classifies every query on `db`. nullopt (and `error`) if a query cannot be
// explained, e.g. because `db` is not a jbench dataset.
std::optional<QueryCatalog> classify_queries(Database& db, std::string& error);

}  // namespace jbench::sqlite_workload
