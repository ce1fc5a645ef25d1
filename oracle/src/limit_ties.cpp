#include "jbench/oracle/limit_ties.h"

#include "jbench/oracle/sql_lexer.h"

namespace jbench::oracle {

namespace {

// The index of the last token that is not a space or a `;`, or tokens.size() when none is.
std::size_t last_meaningful(std::string_view sql, const std::vector<SqlToken>& tokens,
                            std::size_t before) {
  while (before > 0) {
    const SqlToken& t = tokens[before - 1];
    const bool semicolon = t.kind == TokenKind::punct && sql.substr(t.begin, 1) == ";";
    if (t.kind != TokenKind::space && !semicolon) return before - 1;
    --before;
  }
  return tokens.size();
}

}  // namespace

std::optional<UnlimitedQuery> without_trailing_limit(std::string_view sql,
                                                     const std::vector<Value>& params) {
  const std::vector<SqlToken> tokens = lex_sql(sql);
  const std::size_t amount = last_meaningful(sql, tokens, tokens.size());
  if (amount == tokens.size()) return std::nullopt;
  const std::size_t limit = last_meaningful(sql, tokens, amount);
  if (limit == tokens.size() || !is_word(sql, tokens[limit], "LIMIT")) return std::nullopt;
  const SqlToken& n = tokens[amount];
  UnlimitedQuery out{std::string(sql.substr(0, tokens[limit].begin)), params};
  while (!out.sql.empty() && (out.sql.back() == ' ' || out.sql.back() == '\n')) out.sql.pop_back();
  if (n.kind == TokenKind::number) return out;
  if (n.kind != TokenKind::parameter || n.parameter_index == 0 ||
      n.parameter_index != params.size()) {
    return std::nullopt;
  }
  for (std::size_t i = 0; i < limit; ++i) {
    if (tokens[i].kind == TokenKind::parameter && tokens[i].parameter_index == n.parameter_index) {
      return std::nullopt;  // the LIMIT's value is used elsewhere too
    }
  }
  out.params.pop_back();
  return out;
}

std::optional<Divergence> invented_tie_rows(const std::vector<Row>& target,
                                            const std::vector<Row>& unlimited,
                                            const Normalization& n) {
  if (target.empty()) return std::nullopt;
  const Row key = order_key_of(target.back(), n);
  std::size_t begin = target.size() - 1;
  while (begin > 0 && rows_equal(order_key_of(target[begin - 1], n), key, n)) --begin;
  std::vector<const Row*> pool;
  for (const Row& row : unlimited) {
    if (rows_equal(order_key_of(row, n), key, n)) pool.push_back(&row);
  }
  for (std::size_t i = begin; i < target.size(); ++i) {
    bool found = false;
    for (auto it = pool.begin(); it != pool.end(); ++it) {
      if (rows_equal(target[i], **it, n)) {
        pool.erase(it);
        found = true;
        break;
      }
    }
    if (found) continue;
    Divergence d;
    d.kind = DivergenceKind::row;
    d.row_index = i;
    d.target_row = target[i];
    std::string others;
    for (const Row* row : pool) others += (others.empty() ? "" : ", ") + to_sql_literal(*row);
    d.what = "row " + std::to_string(i) + " of the last tie group, " + to_sql_literal(target[i]) +
             ", is not a row of the statement without its LIMIT (the oracle's rows with that key " +
             "not already matched: " + (others.empty() ? "none" : others) + ")";
    return d;
  }
  return std::nullopt;
}

}  // namespace jbench::oracle
