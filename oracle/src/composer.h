// The generator's composed queries: SELECTs assembled from parts drawn from the seed — projections,
// predicates and expressions of every value class, literals written into the text, table and
// column aliases named by the seed — so that no two statements of a stream need share their
// text, and an engine that is right only on statements it recognises is caught on the others.
//
//   SplitMix64 rng(seed);
//   Composer c(rng);
//   ComposedQuery q = c.query();            // q.sql, q.shape ("composed_join", ...), q.order
//   std::string p = c.predicate({"i", "g"});  // a WHERE condition over items i, groups g
//
// Every statement is written so that two right engines must agree: an answer of several rows is
// ordered only by a key that ends in a unique column (or compared as a multiset); a scalar
// subquery is an aggregate or reads a primary key; DISTINCT, GROUP BY, set operations, min and
// max only see integer or text expressions (1 and 1.0 are equal and keep whichever came first);
// sums only add columns (no sum overflows on one plan and not another); reals are multiples of
// 1/4 (their sums and products are exact). Private to the oracle library.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "jbench/common/random.h"
#include "jbench/oracle/normalize.h"

namespace jbench::oracle {

// The tables an expression may read: items and groups (the generator's schema) under these
// aliases, either absent when empty. Columns of a table on the outer side of a LEFT JOIN may
// be NULL.
struct Scope {
  std::string items;
  std::string groups;
};

struct ComposedQuery {
  std::string shape;  // for the coverage table: composed_select, composed_join, ...
  std::string sql;
  RowOrder order = RowOrder::multiset;
  std::vector<std::size_t> order_key;  // unique: the whole order is determined
  std::size_t columns = 0;
};

class Composer {
 public:
  explicit Composer(SplitMix64& rng) : rng_(rng) {}

  ComposedQuery query();
  // A condition over `scope`, nested up to `depth` operators, with subqueries correlated to it.
  std::string predicate(const Scope& scope, int depth = 2);

 private:
  // The value classes of an expression: integer and text never turn into each other's equal,
  // real only where the answer does not depend on which of two equal values is kept.
  enum class Family { integer, text, real, blob };

  ComposedQuery select_shape();
  ComposedQuery join_shape();
  ComposedQuery group_shape();
  ComposedQuery compound_shape();
  ComposedQuery window_shape();
  ComposedQuery cte_shape();

  std::string expr(Family f, const Scope& s, int depth);
  std::string int_expr(const Scope& s, int depth);
  std::string int_operation(const Scope& s, int depth);
  std::string text_expr(const Scope& s, int depth);
  std::string text_operation(const Scope& s, int depth);
  std::string real_expr(const Scope& s, int depth);
  std::string blob_expr(const Scope& s);
  std::string int_column(const Scope& s);
  std::string column_or_literal(const Scope& s);
  std::string scalar_subquery(const Scope& outer);
  std::string subquery_condition(const std::string& inner, const Scope& outer);
  std::string comparison(const Scope& s, int depth);
  std::string membership(const Scope& s, int depth);
  std::string text_match(const Scope& s, int depth);
  std::string aggregate(const Scope& s);
  std::string window_function(const Scope& s);
  std::string projection(const std::vector<std::string>& exprs, std::vector<std::string>& names);

  std::string int_literal();
  std::string text_literal();
  std::string real_literal();
  std::string pattern(const char* alphabet);
  std::string name(const char* prefix);  // an identifier drawn from the seed
  Family pure_family();                  // integer or text
  Family any_family();
  std::string maybe_where(const Scope& s);
  bool chance(std::uint64_t percent) { return rng_.below(100) < percent; }

  SplitMix64& rng_;
  bool in_subquery_ = false;  // subqueries do not nest
};

}  // namespace jbench::oracle
