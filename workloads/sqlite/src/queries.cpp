#include "jbench/sqlite_workload/queries.h"

#include <fmt/format.h>

namespace jbench::sqlite_workload {
namespace {

constexpr std::array<std::string_view, kOpTypeCount> kOpNames = {
    "insert", "update", "point_lookup", "range_scan", "scalar_correlated", "scalar_uncorrelated"};

constexpr std::array<std::string_view, kOpTypeCount> kPlanClasses = {
    "insert",
    "update",
    "point_lookup",
    "range_scan",
    "correlated_scalar_subquery",
    "uncorrelated_scalar_subquery"};

constexpr std::array<QueryInfo, kQueryCount> kQueries = {{
    {"insert_item", "INSERT INTO items(grp, val, payload) VALUES(?1, ?2, ?3)", OpType::insert},
    {"update_val", "UPDATE items SET val = ?1 WHERE id = ?2", OpType::update},
    {"lookup_by_id", "SELECT grp, val, payload FROM items WHERE id = ?1", OpType::point_lookup},
    {"scan_grp_range", "SELECT id, val FROM items WHERE grp BETWEEN ?1 AND ?2", OpType::range_scan},
    {"weight_by_id_range",
     "SELECT id, (SELECT weight FROM groups g WHERE g.grp = items.grp) FROM items "
     "WHERE id BETWEEN ?1 AND ?2",
     OpType::range_scan},
    {"count_above_mean_weight",
     "SELECT count(*) FROM items WHERE grp = ?1 AND val > (SELECT avg(weight) FROM groups)",
     OpType::range_scan},
}};

bool starts_with_word(std::string_view line, std::string_view prefix) {
  // "SCALAR SUBQUERY 1" but not a table that happens to be named SCALAR_SUBQUERYX.
  return line.starts_with(prefix) && (line.size() == prefix.size() || line[prefix.size()] == ' ');
}

}  // namespace

std::string_view to_string(OpType type) { return kOpNames[static_cast<std::size_t>(type)]; }

std::string_view plan_class(OpType type) { return kPlanClasses[static_cast<std::size_t>(type)]; }

const QueryInfo& query_info(Query query) { return kQueries[static_cast<std::size_t>(query)]; }

std::string_view to_string(SubqueryClass cls) {
  switch (cls) {
    case SubqueryClass::none:
      return "none";
    case SubqueryClass::uncorrelated:
      return "uncorrelated";
    case SubqueryClass::correlated:
      return "correlated";
  }
  return "none";
}

SubqueryClass classify_plan(const std::vector<std::string>& details) {
  SubqueryClass cls = SubqueryClass::none;
  for (const auto& line : details) {
    if (starts_with_word(line, "CORRELATED SCALAR SUBQUERY")) return SubqueryClass::correlated;
    if (starts_with_word(line, "SCALAR SUBQUERY")) cls = SubqueryClass::uncorrelated;
  }
  return cls;
}

std::optional<QueryCatalog> classify_queries(Database& db, std::string& error) {
  QueryCatalog catalog;
  for (std::size_t i = 0; i < kQueryCount; ++i) {
    const QueryInfo& info = kQueries[i];
    auto plan = db.query_plan(info.sql);
    if (!plan) {
      error = fmt::format("EXPLAIN QUERY PLAN of {} failed: {}", info.name, db.errmsg());
      return std::nullopt;
    }
    ClassifiedQuery& q = catalog[i];
    q.subquery = classify_plan(*plan);
    q.plan = std::move(*plan);
    // Writes keep their type: a subquery inside an INSERT would not make it a read.
    if (is_write(info.plain_type) || q.subquery == SubqueryClass::none) {
      q.type = info.plain_type;
    } else {
      q.type = q.subquery == SubqueryClass::correlated ? OpType::scalar_correlated
                                                       : OpType::scalar_uncorrelated;
    }
  }
  return catalog;
}

}  // namespace jbench::sqlite_workload
