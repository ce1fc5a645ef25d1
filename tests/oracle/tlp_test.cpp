// The TLP metamorphic check on a real in-memory SQLite: correct SQLite passes on predicates that
// produce NULLs; a target that mishandles NULLs in filtered scans is caught, naming the
// predicate; a broken predicate is an error outcome, not an exception.
#include "jbench/oracle/tlp.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "jbench/oracle/sqlite_target.h"
#include "null_dropping_filter_target.h"
#include "value_printer.h"

namespace jbench::oracle {
namespace {

// Two small tables with NULLs in every column, mixed integer/real/text, and a duplicate row (the
// comparison is a multiset one, so duplicates must survive the partitioning).
SqliteTarget db_with_nulls() {
  auto db = SqliteTarget::open(":memory:", {});
  if (!db) {
    ADD_FAILURE() << db.error().message;
    std::abort();  // every test needs the database; there is nothing to check without it
  }
  SqliteTarget t = std::move(db).value();
  for (const char* sql : {
           "CREATE TABLE t1(a, b, c TEXT)",
           "INSERT INTO t1 VALUES (1, 1, 'abc'), (2, NULL, 'ab'), (NULL, 3, 'xabx'), "
           "(NULL, NULL, NULL), (3, 3.0, 'b%c'), (2.5, 2, ''), (1, 1, 'abc')",
           "CREATE TABLE t2(x, y TEXT)",
           "INSERT INTO t2 VALUES (1, 'one'), (NULL, 'null'), (3, NULL), (3, 'three')",
       }) {
    ResultSet r = t.run(sql, {});
    if (!r.ok()) ADD_FAILURE() << sql << ": " << r.error->message;
  }
  return t;
}

const std::vector<TlpCase>& cases() {
  static const std::vector<TlpCase> all = {
      {"SELECT a, b FROM t1", "a > 1", {}},
      {"SELECT a, b FROM t1", "b IS NULL", {}},
      {"SELECT a, b, c FROM t1", "a = b", {}},
      {"SELECT a, c FROM t1", "c LIKE '%ab%'", {}},
      {"SELECT a, b FROM t1", "a + b > 2", {}},           // NULL when either is NULL
      {"SELECT a FROM t1", "a IN (1, NULL)", {}},         // NULL, never false, for a != 1
      {"SELECT a, b FROM t1", "NOT a = 1 OR b < 3", {}},  // parenthesised by check_tlp
      {"SELECT a, b FROM t1", "a >= ?1", {Value::integer(2)}},
      {"SELECT t1.a, t2.y FROM t1 JOIN t2 ON t1.b = t2.x", "t2.y <> 'one'", {}},
      {"SELECT t1.a, t2.x FROM t1 LEFT JOIN t2 ON t1.a = t2.x", "t2.x IS NOT NULL", {}},
      {"SELECT coalesce(a, 0), b FROM t1", "b > 1", {}},  // a first column that is never NULL
  };
  return all;
}

TEST(Tlp, builds_the_base_and_three_parenthesised_partitions) {
  auto q = tlp_queries({"SELECT a FROM t1", "a > 1 OR b", {}});
  EXPECT_EQ(q[0], "SELECT a FROM t1");
  EXPECT_EQ(q[1], "SELECT a FROM t1 WHERE (a > 1 OR b)");
  EXPECT_EQ(q[2], "SELECT a FROM t1 WHERE NOT (a > 1 OR b)");
  EXPECT_EQ(q[3], "SELECT a FROM t1 WHERE (a > 1 OR b) IS NULL");
}

TEST(Tlp, sqlite_is_the_same_on_every_case) {
  SqliteTarget db = db_with_nulls();
  for (const TlpCase& c : cases()) {
    TlpOutcome o = check_tlp(db, c);
    EXPECT_EQ(o.verdict, TlpVerdict::same) << describe(o);
    EXPECT_EQ(o.union_rows, o.row_counts[0]) << describe(o);
    EXPECT_GT(o.row_counts[0], 0u) << describe(o);
  }
}

TEST(Tlp, the_null_partition_is_not_empty_for_null_producing_predicates) {
  // Guards the cases above: without rows where p is NULL, the third partition would be untested.
  SqliteTarget db = db_with_nulls();
  for (const char* p : {"a > 1", "a = b", "a + b > 2", "a IN (1, NULL)"}) {
    TlpOutcome o = check_tlp(db, {"SELECT a, b FROM t1", p, {}});
    EXPECT_GT(o.row_counts[static_cast<std::size_t>(TlpQuery::where_null)], 0u) << describe(o);
  }
}

TEST(Tlp, a_filter_that_drops_null_first_columns_is_caught_naming_the_predicate) {
  NullDroppingFilterTarget broken(db_with_nulls());
  TlpOutcome o = check_tlp(broken, {"SELECT a, b FROM t1", "b IS NULL", {}});
  ASSERT_EQ(o.verdict, TlpVerdict::divergence) << describe(o);
  ASSERT_TRUE(o.divergence.has_value());
  EXPECT_EQ(o.divergence->kind, DivergenceKind::row_count);
  EXPECT_EQ(o.row_counts[0], 7u);  // the unfiltered base keeps both (NULL, ...) rows
  EXPECT_EQ(o.union_rows, 5u);
  EXPECT_EQ(o.predicate, "b IS NULL");
  std::string text = describe(o);
  EXPECT_NE(text.find("b IS NULL"), std::string::npos) << text;
  EXPECT_NE(text.find(o.divergence->what), std::string::npos) << text;
  EXPECT_NE(text.find("SELECT a, b FROM t1 WHERE (b IS NULL) IS NULL"), std::string::npos) << text;
}

TEST(Tlp, the_broken_filter_fails_every_case_whose_base_has_a_null_first_column) {
  NullDroppingFilterTarget broken(db_with_nulls());
  SqliteTarget real = db_with_nulls();
  std::size_t caught = 0, passed = 0;
  for (const TlpCase& c : cases()) {
    // Which cases the fixture must fail is read from the correct engine, not assumed.
    ResultSet base = real.run(c.select_from, {});
    bool has_null_first = false;
    for (const Row& row : base.rows) has_null_first |= row[0].kind == ValueKind::null;
    TlpOutcome o = check_tlp(broken, c);
    EXPECT_EQ(o.verdict, has_null_first ? TlpVerdict::divergence : TlpVerdict::same) << describe(o);
    ++(has_null_first ? caught : passed);
  }
  // Both branches are exercised: the fixture is not simply failing everything.
  EXPECT_GT(caught, 0u);
  EXPECT_GT(passed, 0u);
}

TEST(Tlp, a_syntax_error_in_the_predicate_is_an_error_outcome) {
  SqliteTarget db = db_with_nulls();
  TlpOutcome o = check_tlp(db, {"SELECT a FROM t1", "a >", {}});
  EXPECT_EQ(o.verdict, TlpVerdict::error);
  ASSERT_TRUE(o.failed_query.has_value());
  // The base query has no predicate and runs; the first partition is the first to fail.
  EXPECT_EQ(*o.failed_query, TlpQuery::where_true);
  ASSERT_TRUE(o.error.has_value());
  EXPECT_EQ(o.error->code & 0xff, 1);  // SQLITE_ERROR
  EXPECT_FALSE(o.divergence.has_value());
  EXPECT_NE(describe(o).find("where (p) query failed"), std::string::npos) << describe(o);
}

TEST(Tlp, a_failing_base_query_is_reported_as_the_base) {
  SqliteTarget db = db_with_nulls();
  TlpOutcome o = check_tlp(db, {"SELECT a FROM no_such_table", "a > 1", {}});
  EXPECT_EQ(o.verdict, TlpVerdict::error);
  ASSERT_TRUE(o.failed_query.has_value());
  EXPECT_EQ(*o.failed_query, TlpQuery::base);
  ASSERT_TRUE(o.error.has_value());
  EXPECT_NE(o.error->message.find("no_such_table"), std::string::npos);
}

}  // namespace
}  // namespace jbench::oracle
