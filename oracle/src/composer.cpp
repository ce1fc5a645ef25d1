#include "composer.h"

#include <array>
#include <initializer_list>
#include <string_view>

#include "jbench/oracle/result_set.h"

namespace jbench::oracle {

namespace {

template <std::size_t N>
const char* pick(SplitMix64& rng, const std::array<const char*, N>& from) {
  return from[rng.below(N)];
}

// The parts in the order given. Every statement is assembled through this, or from named
// locals: the elements of a braced list are evaluated in order, where the operands of `+` and a
// call's arguments are not, and each part may draw from the generator — the same seed must give
// the same text whatever the compiler.
std::string cat(std::initializer_list<std::string> parts) {
  std::string out;
  for (const std::string& p : parts) out += p;
  return out;
}

std::string column(const std::string& alias, std::string_view name) {
  return alias + "." + std::string(name);
}

}  // namespace

ComposedQuery Composer::query() {
  switch (rng_.below(6)) {
    case 0:
      return select_shape();
    case 1:
      return join_shape();
    case 2:
      return group_shape();
    case 3:
      return compound_shape();
    case 4:
      return window_shape();
    default:
      return cte_shape();
  }
}

// SELECT over items alone: a multiset, DISTINCT over integer or text expressions, or ordered by
// an expression then the primary key (so the whole order is fixed) and cut by LIMIT and OFFSET.
ComposedQuery Composer::select_shape() {
  const Scope s{name("a_"), ""};
  ComposedQuery q;
  q.shape = "composed_select";
  std::vector<std::string> names;
  if (chance(40)) {
    const std::string cols = projection(
        {column(s.items, "id"), expr(any_family(), s, 2), expr(any_family(), s, 2)}, names);
    q.sql = cat({"SELECT ", cols, " FROM items AS ", s.items, maybe_where(s), " ORDER BY ",
                 names[1], chance(50) ? " DESC" : "", ", ", names[0]});
    if (chance(60)) {
      q.sql += " LIMIT " + std::to_string(1 + rng_.below(12));
      if (chance(50)) q.sql += " OFFSET " + std::to_string(rng_.below(20));
    }
    q.order = RowOrder::ordered;
    q.order_key = {1, 0};
    q.columns = 3;
    return q;
  }
  const bool distinct = chance(40);
  std::vector<std::string> exprs;
  const std::size_t n = 1 + rng_.below(3);
  for (std::size_t i = 0; i < n; ++i) {
    exprs.push_back(expr(distinct ? pure_family() : any_family(), s, 2));
  }
  const std::string cols = projection(exprs, names);
  q.sql = cat(
      {"SELECT ", distinct ? "DISTINCT " : "", cols, " FROM items AS ", s.items, maybe_where(s)});
  q.columns = n;
  return q;
}

// items joined to groups (inner or LEFT, with a condition in ON as well as WHERE), or groups
// LEFT JOIN items, whose unmatched groups leave every items column NULL.
ComposedQuery Composer::join_shape() {
  const Scope s{name("a_"), name("b_")};
  std::string from;
  if (chance(30)) {
    from = cat({"groups AS ", s.groups, " LEFT JOIN items AS ", s.items, " ON ",
                column(s.items, "grp"), " = ", column(s.groups, "grp")});
  } else {
    from = cat({"items AS ", s.items, chance(50) ? " LEFT JOIN" : " JOIN", " groups AS ", s.groups,
                " ON ", column(s.groups, "grp"), " = ", column(s.items, "grp")});
  }
  if (chance(40)) from += " AND " + predicate(s, 1);
  std::vector<std::string> exprs;
  const std::size_t n = 1 + rng_.below(3);
  for (std::size_t i = 0; i < n; ++i) exprs.push_back(expr(any_family(), s, 2));
  std::vector<std::string> names;
  ComposedQuery q;
  q.shape = "composed_join";
  const std::string cols = projection(exprs, names);
  q.sql = cat({"SELECT ", cols, " FROM ", from, maybe_where(s)});
  q.columns = n;
  return q;
}

// GROUP BY an integer or text expression, aggregates of it, HAVING over an aggregate.
ComposedQuery Composer::group_shape() {
  const Scope s{name("a_"), ""};
  std::vector<std::string> exprs = {expr(pure_family(), s, 1), aggregate(s)};
  if (chance(50)) exprs.push_back(aggregate(s));
  std::vector<std::string> names;
  ComposedQuery q;
  q.shape = "composed_group";
  const std::string cols = projection(exprs, names);
  // By its alias: an integer literal after GROUP BY would name a result column.
  q.sql =
      cat({"SELECT ", cols, " FROM items AS ", s.items, maybe_where(s), " GROUP BY ", names[0]});
  if (chance(50)) {
    q.sql += cat({" HAVING (", aggregate(s), " ", pick(rng_, std::array{"<", ">", "=", "IS NOT"}),
                  " ", column_or_literal({}), ")"});
  }
  q.columns = exprs.size();
  return q;
}

// Two SELECTs of one value class joined by UNION, UNION ALL, INTERSECT or EXCEPT.
ComposedQuery Composer::compound_shape() {
  const Scope left{name("a_"), ""};
  const Scope right{name("c_"), ""};
  const Family f = pure_family();
  std::vector<std::string> names;
  ComposedQuery q;
  q.shape = "composed_compound";
  const std::string cols = projection({expr(f, left, 2)}, names);
  q.sql = cat({"SELECT ", cols, " FROM items AS ", left.items, maybe_where(left), " ",
               pick(rng_, std::array{"UNION", "UNION ALL", "INTERSECT", "EXCEPT"}), " SELECT ",
               expr(f, right, 2), " FROM items AS ", right.items, maybe_where(right)});
  q.columns = 1;
  return q;
}

// A window function beside the primary key, over a filtered scan.
ComposedQuery Composer::window_shape() {
  const Scope s{name("a_"), ""};
  std::vector<std::string> names;
  ComposedQuery q;
  q.shape = "composed_window";
  const std::string cols = projection({column(s.items, "id"), window_function(s)}, names);
  q.sql = cat({"SELECT ", cols, " FROM items AS ", s.items, maybe_where(s)});
  q.columns = 2;
  return q;
}

// A CTE of (key, value) pairs, grouped by the outer query.
ComposedQuery Composer::cte_shape() {
  const Scope s{name("a_"), ""};
  const std::string cte = name("w_");
  const std::string k = name("k_");
  const std::string v = name("v_");
  ComposedQuery q;
  q.shape = "composed_cte";
  const std::string body =
      cat({"SELECT ", expr(pure_family(), s, 1), ", ", expr(pure_family(), s, 2), " FROM items AS ",
           s.items, maybe_where(s)});
  std::vector<std::string> names;
  const std::string cols = projection({k, "count(*)", "count(" + v + ")", "max(" + v + ")"}, names);
  q.sql = cat({"WITH ", cte, "(", k, ", ", v, ") AS (", body, ") SELECT ", cols, " FROM ", cte,
               " GROUP BY ", k});
  q.columns = 4;
  return q;
}

std::string Composer::projection(const std::vector<std::string>& exprs,
                                 std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < exprs.size(); ++i) {
    names.push_back(name("c_") + std::to_string(i));
    out += cat({i ? ", " : "", exprs[i], " AS ", names.back()});
  }
  return out;
}

std::string Composer::maybe_where(const Scope& s) {
  return chance(75) ? " WHERE " + predicate(s) : "";
}

// ---- expressions -------------------------------------------------------------------------------

std::string Composer::expr(Family f, const Scope& s, int depth) {
  switch (f) {
    case Family::integer:
      return int_expr(s, depth);
    case Family::text:
      return text_expr(s, depth);
    case Family::real:
      return real_expr(s, depth);
    case Family::blob:
      return blob_expr(s);
  }
  return "NULL";
}

std::string Composer::int_expr(const Scope& s, int depth) {
  if (depth <= 0 || chance(35)) return column_or_literal(s);
  return int_operation(s, depth - 1);
}

// Products only by a literal, sums only of columns: no value leaves the 64-bit integers, so
// nothing becomes a real on one plan and not another.
std::string Composer::int_operation(const Scope& s, int d) {
  switch (rng_.below(11)) {
    case 0:
      return cat(
          {"(", int_expr(s, d), " ", pick(rng_, std::array{"+", "-"}), " ", int_expr(s, d), ")"});
    case 1:
      return cat({"(", int_expr(s, d), " * ", int_literal(), ")"});
    case 2:
      return cat(
          {"(", int_expr(s, d), " ", pick(rng_, std::array{"/", "%"}), " ", int_expr(s, d), ")"});
    case 3:
      return cat({"abs(", int_expr(s, d), ")"});
    case 4:
      return cat({"CASE WHEN ", predicate(s, d), " THEN ", int_expr(s, d), " ELSE ", int_expr(s, d),
                  " END"});
    case 5:
      return cat({pick(rng_, std::array{"coalesce(", "nullif("}), int_expr(s, d), ", ",
                  int_expr(s, d), ")"});
    case 6:
      return cat({"length(", text_expr(s, d), ")"});
    case 7:
      return cat({"(", predicate(s, d), ")"});  // 1, 0 or NULL
    case 8:
      return cat({"CAST(", text_expr(s, d), " AS INTEGER)"});
    default:
      return in_subquery_ ? int_column(s) : scalar_subquery(s);
  }
}

std::string Composer::text_expr(const Scope& s, int depth) {
  if (depth <= 0 || chance(35)) {
    if (!s.items.empty() && chance(60)) return column(s.items, "note");
    return chance(10) ? "NULL" : text_literal();
  }
  return text_operation(s, depth - 1);
}

std::string Composer::text_operation(const Scope& s, int d) {
  switch (rng_.below(8)) {
    case 0:
      return cat({pick(rng_, std::array{"upper(", "lower(", "trim("}), text_expr(s, d), ")"});
    case 1:
      return cat({"(", text_expr(s, d), " || ", text_expr(s, d), ")"});
    case 2:
      return cat({"substr(", text_expr(s, d), ", ", int_literal(), ", ", int_literal(), ")"});
    case 3:
      return cat({"CAST(", int_expr(s, d), " AS TEXT)"});
    case 4:
      return cat({"coalesce(", text_expr(s, d), ", ", text_expr(s, d), ")"});
    case 5:
      return cat({"CASE WHEN ", predicate(s, d), " THEN ", text_expr(s, d), " ELSE ",
                  text_expr(s, d), " END"});
    case 6:
      return cat({"typeof(", expr(any_family(), s, d), ")"});
    default:
      return cat({"replace(", text_expr(s, d), ", ", text_literal(), ", ", text_literal(), ")"});
  }
}

// Multiples of 1/4 and products of integers with them: exact, so every plan computes the same.
std::string Composer::real_expr(const Scope& s, int depth) {
  if (depth <= 0 || chance(30)) return real_literal();
  const int d = depth - 1;
  switch (rng_.below(3)) {
    case 0:
      return cat({"(", int_expr(s, d), " * ", real_literal(), ")"});
    case 1:
      return cat({"CAST(", int_expr(s, d), " AS REAL)"});
    default:
      return cat(
          {"(", real_expr(s, d), " ", pick(rng_, std::array{"+", "-"}), " ", int_expr(s, d), ")"});
  }
}

std::string Composer::blob_expr(const Scope& s) {
  if (!s.items.empty() && chance(60)) return column(s.items, "payload");
  std::string bytes(rng_.below(3), '\0');
  for (char& c : bytes) c = static_cast<char>(rng_.below(256));
  return to_sql_literal(Value::blob(bytes));
}

std::string Composer::int_column(const Scope& s) {
  if (!s.items.empty() && (s.groups.empty() || chance(70))) {
    return column(s.items, pick(rng_, std::array{"id", "grp", "val", "val"}));
  }
  if (!s.groups.empty()) return column(s.groups, pick(rng_, std::array{"grp", "weight"}));
  return int_literal();
}

std::string Composer::column_or_literal(const Scope& s) {
  const std::uint64_t roll = rng_.below(100);
  if (roll < 55 && !(s.items.empty() && s.groups.empty())) return int_column(s);
  if (roll < 95) return int_literal();
  return "NULL";
}

// One row on every plan: an aggregate, or the groups row of a primary key.
std::string Composer::scalar_subquery(const Scope& outer) {
  in_subquery_ = true;
  std::string sql;
  if (chance(30)) {
    const std::string g = name("u_");
    sql = cat({"(SELECT ", column(g, "weight"), " FROM groups AS ", g, " WHERE ", column(g, "grp"),
               " = ", int_expr(outer, 1), ")"});
  } else {
    const Scope inner{name("s_"), ""};
    const std::string agg = pick(rng_, std::array{"count(*)", "max", "min", "sum"});
    const std::string what = agg == "count(*)" ? agg : agg + "(" + column(inner.items, "val") + ")";
    sql = cat({"(SELECT ", what, " FROM items AS ", inner.items, " WHERE ",
               subquery_condition(inner.items, outer), ")"});
  }
  in_subquery_ = false;
  return sql;
}

// Correlated to the outer row where there is one, and filtered by a condition of its own.
std::string Composer::subquery_condition(const std::string& inner, const Scope& outer) {
  std::string link;
  if (!outer.items.empty() && chance(60)) {
    link = column(inner, "grp") + " = " + column(outer.items, "grp");
  } else if (!outer.groups.empty() && chance(60)) {
    link = column(inner, "grp") + " = " + column(outer.groups, "grp");
  } else {
    link = column(inner, "val") + " > " + int_literal();
  }
  return link + " AND " + predicate(Scope{inner, ""}, 1);
}

// ---- predicates --------------------------------------------------------------------------------

std::string Composer::predicate(const Scope& s, int depth) {
  const int d = depth - 1;
  switch (rng_.below(depth > 0 ? 10 : 6)) {
    case 0:
    case 1:
      return comparison(s, depth);
    case 2:
      return membership(s, depth);
    case 3:
      return text_match(s, depth);
    case 4:
      return cat({expr(any_family(), s, depth), chance(50) ? " IS NULL" : " IS NOT NULL"});
    case 5:
      return cat({expr(any_family(), s, depth), chance(50) ? " BETWEEN " : " NOT BETWEEN ",
                  column_or_literal(s), " AND ", column_or_literal(s)});
    case 6:
      return cat({"NOT (", predicate(s, d), " AND ", predicate(s, d), ")"});
    case 7:
      return cat({"(", predicate(s, d), " AND ", predicate(s, d), ")"});
    default:
      return cat({"(", predicate(s, d), " OR ", predicate(s, d), ")"});
  }
}

// Two values of one class, or of two (integers against text: the columns' affinity decides).
std::string Composer::comparison(const Scope& s, int depth) {
  const Family left = any_family();
  const Family right = chance(75) ? left : any_family();
  return cat({"(", expr(left, s, depth), " ",
              pick(rng_, std::array{"=", "<>", "<", "<=", ">", ">=", "IS", "IS NOT"}), " ",
              expr(right, s, depth), ")"});
}

// IN and NOT IN over a list (NULL in it sometimes: NOT IN is then never true) or a subquery,
// and EXISTS.
std::string Composer::membership(const Scope& s, int depth) {
  const std::string not_ = chance(40) ? " NOT" : "";
  if (in_subquery_ || chance(50)) {
    const std::string subject = int_expr(s, depth);
    std::string list = int_literal();
    for (std::uint64_t n = rng_.below(4); n > 0; --n) {
      list += ", " + (chance(15) ? std::string("NULL") : int_literal());
    }
    return cat({subject, not_, " IN (", list, ")"});
  }
  in_subquery_ = true;
  const std::string inner = name("s_");
  const std::string body =
      cat({" FROM items AS ", inner, " WHERE ", subquery_condition(inner, s), ")"});
  std::string sql;
  if (chance(50)) {
    sql = cat({int_expr(s, depth), not_, " IN (SELECT ",
               column(inner, pick(rng_, std::array{"val", "grp", "id"})), body});
  } else {
    sql = cat({not_.empty() ? "" : "NOT ", "EXISTS (SELECT 1", body});
  }
  in_subquery_ = false;
  return sql;
}

// LIKE (ASCII case folded) and GLOB (case kept), patterns drawn from the seed.
std::string Composer::text_match(const Scope& s, int depth) {
  const std::string subject = text_expr(s, depth);
  if (chance(50)) {
    return cat({subject, chance(30) ? " NOT LIKE " : " LIKE ", pattern("aAbB _%")});
  }
  return cat({subject, chance(30) ? " NOT GLOB " : " GLOB ", pattern("aAbB *?")});
}

// ---- aggregates and windows --------------------------------------------------------------------

std::string Composer::aggregate(const Scope& s) {
  switch (rng_.below(6)) {
    case 0:
      return "count(*)";
    case 1:
      return cat({"count(", expr(any_family(), s, 2), ")"});
    case 2:
      return cat({pick(rng_, std::array{"sum(", "total(", "avg("}), int_column(s), ")"});
    case 3:
      return cat({pick(rng_, std::array{"min(", "max("}), expr(pure_family(), s, 2), ")"});
    case 4:
      return cat({"count(DISTINCT ", expr(pure_family(), s, 1), ")"});
    default:
      return cat({pick(rng_, std::array{"sum(", "max("}), "CASE WHEN ", predicate(s, 1), " THEN ",
                  int_column(s), " END)"});
  }
}

// Deterministic on any plan: ORDER BY inside a window ends in the primary key, or the function
// gives peers one value (rank, dense_rank, a RANGE frame's sum).
std::string Composer::window_function(const Scope& s) {
  const std::string id = column(s.items, "id");
  const std::string key = expr(pure_family(), s, 1);
  switch (rng_.below(6)) {
    case 0:
      return cat(
          {"sum(", column(s.items, "val"), ") OVER (PARTITION BY ", key, " ORDER BY ", id, ")"});
    case 1:
      return cat({"count(*) OVER (PARTITION BY ", key, ")"});
    case 2:
      return cat({pick(rng_, std::array{"rank", "dense_rank"}), "() OVER (ORDER BY ", key,
                  chance(50) ? " DESC" : "", ")"});
    case 3:
      return cat(
          {"row_number() OVER (PARTITION BY ", key, " ORDER BY ", int_expr(s, 1), ", ", id, ")"});
    case 4:
      return cat({"max(", int_expr(s, 1), ") OVER (ORDER BY ", id,
                  " ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)"});
    default:
      return cat({pick(rng_, std::array{"lag(", "lead("}), expr(pure_family(), s, 1),
                  ") OVER (ORDER BY ", id, ")"});
  }
}

// ---- literals and names ------------------------------------------------------------------------

std::string Composer::int_literal() {
  const bool large = rng_.below(20) == 0;
  const auto v = large ? static_cast<std::int64_t>(rng_.below(200'000)) - 100'000
                       : static_cast<std::int64_t>(rng_.below(220)) - 60;
  return v < 0 ? "(" + std::to_string(v) + ")" : std::to_string(v);
}

std::string Composer::text_literal() {
  std::string text(rng_.below(4), ' ');
  static constexpr std::string_view kLetters = "aAbBz '1";
  for (char& c : text) c = kLetters[rng_.below(kLetters.size())];
  return to_sql_literal(Value::text(text));
}

std::string Composer::real_literal() {
  const double v = static_cast<double>(static_cast<std::int64_t>(rng_.below(801)) - 400) / 4.0;
  const std::string text = to_sql_literal(Value::real(v));
  return v < 0 ? "(" + text + ")" : text;
}

std::string Composer::pattern(const char* alphabet) {
  const std::string_view letters(alphabet);
  std::string p(1 + rng_.below(3), ' ');
  for (char& c : p) c = letters[rng_.below(letters.size())];
  return to_sql_literal(Value::text(p));
}

std::string Composer::name(const char* prefix) {
  static constexpr std::string_view kLetters = "abcdefghjkmnpqrstuvwxyz";
  std::string out(prefix);
  for (int i = 0; i < 3; ++i) out += kLetters[rng_.below(kLetters.size())];
  return out;
}

Composer::Family Composer::pure_family() { return chance(65) ? Family::integer : Family::text; }

Composer::Family Composer::any_family() {
  const std::uint64_t roll = rng_.below(100);
  if (roll < 50) return Family::integer;
  if (roll < 80) return Family::text;
  if (roll < 95) return Family::real;
  return Family::blob;
}

}  // namespace jbench::oracle
