#include "jbench/oracle/compare.h"

#include <algorithm>

namespace jbench::oracle {

namespace {

std::string error_words(const StatementError& e) {
  return "error " + std::to_string(e.code) + " (" + e.message + ")";
}

Divergence row_divergence(std::size_t index, const Row& target, const Row& oracle,
                          const std::string& context) {
  Divergence d;
  d.kind = DivergenceKind::row;
  d.row_index = index;
  d.target_row = target;
  d.oracle_row = oracle;
  d.what = "row " + std::to_string(index) + " differs" + context + ": target " +
           to_sql_literal(target) + ", oracle " + to_sql_literal(oracle);
  return d;
}

// A group of rows compared as a multiset: both sides sorted canonically, then paired.
std::optional<Divergence> compare_multiset(std::vector<Row> target, std::vector<Row> oracle,
                                           std::size_t first_index, const Normalization& n,
                                           const std::string& context) {
  auto less = [&n](const Row& a, const Row& b) { return row_less(a, b, n); };
  std::stable_sort(target.begin(), target.end(), less);
  std::stable_sort(oracle.begin(), oracle.end(), less);
  for (std::size_t i = 0; i < target.size(); ++i) {
    if (!rows_equal(target[i], oracle[i], n)) {
      return row_divergence(first_index + i, target[i], oracle[i], context);
    }
  }
  return std::nullopt;
}

// The end of the tie group that starts at `begin`: rows whose ORDER BY key equals row begin's.
std::size_t tie_group_end(const std::vector<Row>& rows, std::size_t begin, const Normalization& n) {
  Row key = order_key_of(rows[begin], n);
  std::size_t end = begin + 1;
  while (end < rows.size() && rows_equal(order_key_of(rows[end], n), key, n)) ++end;
  return end;
}

// Ordered rows: tie groups of the oracle in order, each compared as a multiset with the target's
// rows at the same positions; under limit_ties the last group is compared on its key only.
std::optional<Divergence> compare_ordered(const std::vector<Row>& target,
                                          const std::vector<Row>& oracle, const Normalization& n) {
  std::size_t begin = 0;
  while (begin < oracle.size()) {
    std::size_t end = tie_group_end(oracle, begin, n);
    Row key = order_key_of(oracle[begin], n);
    // Every target row in the span must carry the group's key, else it is out of order.
    for (std::size_t i = begin; i < end; ++i) {
      if (!rows_equal(order_key_of(target[i], n), key, n)) {
        return row_divergence(i, target[i], oracle[i],
                              n.order_key.empty() ? "" : " in its ORDER BY key");
      }
    }
    bool last = end == oracle.size();
    if (!(last && n.limit_ties)) {
      std::vector<Row> t(target.begin() + begin, target.begin() + end);
      std::vector<Row> o(oracle.begin() + begin, oracle.begin() + end);
      auto d = compare_multiset(std::move(t), std::move(o), begin, n,
                                end - begin > 1 ? " within a tie group" : "");
      if (d) return d;
    }
    begin = end;
  }
  return std::nullopt;
}

bool errors_match(const StatementError& a, const StatementError& b, const Normalization& n) {
  if ((a.code & 0xff) != (b.code & 0xff)) return false;
  return !n.compare_error_messages || a.message == b.message;
}

}  // namespace

// Both failed alike: the rows each gave before failing are compared like a result when both
// gave some (an engine that makes up rows before an error is wrong too).
std::optional<Divergence> rows_before_error(const ResultSet& target, const ResultSet& oracle,
                                            const Normalization& n) {
  if (target.rows.empty() || oracle.rows.empty()) return std::nullopt;
  const ResultSet t{target.columns, target.rows, std::nullopt, std::nullopt};
  const ResultSet o{oracle.columns, oracle.rows, std::nullopt, std::nullopt};
  auto d = compare(t, o, n);
  if (d) d->what = "before the same error: " + d->what;
  return d;
}

std::optional<Divergence> compare(const ResultSet& target, const ResultSet& oracle,
                                  const Normalization& n) {
  if (target.ok() != oracle.ok()) {
    const ResultSet& failed = target.ok() ? oracle : target;
    const ResultSet& good = target.ok() ? target : oracle;
    return Divergence{DivergenceKind::error_vs_result,
                      std::string(target.ok() ? "the oracle" : "the target") + " failed with " +
                          error_words(*failed.error) + " where the " +
                          (target.ok() ? "target" : "oracle") + " returned " +
                          std::to_string(good.rows.size()) + " rows",
                      {},
                      {},
                      {}};
  }
  if (!target.ok()) {
    if (errors_match(*target.error, *oracle.error, n)) {
      return rows_before_error(target, oracle, n);
    }
    return Divergence{DivergenceKind::different_errors,
                      "different errors: target " + error_words(*target.error) + ", oracle " +
                          error_words(*oracle.error),
                      {},
                      {},
                      {}};
  }
  // A side without names (a corpus expectation) has no column count to compare either; its rows'
  // widths are compared with the other side's rows.
  if (!target.columns.empty() && !oracle.columns.empty()) {
    if (target.columns.size() != oracle.columns.size()) {
      return Divergence{DivergenceKind::column_count,
                        "target has " + std::to_string(target.columns.size()) +
                            " columns, oracle " + std::to_string(oracle.columns.size()),
                        {},
                        {},
                        {}};
    }
    if (n.compare_column_names) {
      for (std::size_t i = 0; i < target.columns.size(); ++i) {
        if (target.columns[i] != oracle.columns[i]) {
          return Divergence{DivergenceKind::column_names,
                            "column " + std::to_string(i) + " is named '" + target.columns[i] +
                                "' by the target, '" + oracle.columns[i] + "' by the oracle",
                            {},
                            {},
                            {}};
        }
      }
    }
  }
  if (target.rows.size() != oracle.rows.size()) {
    return Divergence{DivergenceKind::row_count,
                      "target returned " + std::to_string(target.rows.size()) + " rows, oracle " +
                          std::to_string(oracle.rows.size()),
                      {},
                      {},
                      {}};
  }
  if (n.order == RowOrder::ordered) return compare_ordered(target.rows, oracle.rows, n);
  return compare_multiset(target.rows, oracle.rows, 0, n, "");
}

const char* to_string(DivergenceKind kind) {
  switch (kind) {
    case DivergenceKind::error_vs_result:
      return "error_vs_result";
    case DivergenceKind::different_errors:
      return "different_errors";
    case DivergenceKind::column_count:
      return "column_count";
    case DivergenceKind::column_names:
      return "column_names";
    case DivergenceKind::row_count:
      return "row_count";
    case DivergenceKind::row:
      return "row";
  }
  return "row";
}

nlohmann::json to_json(const Divergence& d) {
  nlohmann::json j = {{"kind", to_string(d.kind)}, {"what", d.what}};
  if (d.row_index) j["row_index"] = *d.row_index;
  if (d.target_row) j["target_row"] = to_sql_literal(*d.target_row);
  if (d.oracle_row) j["oracle_row"] = to_sql_literal(*d.oracle_row);
  return j;
}

}  // namespace jbench::oracle
