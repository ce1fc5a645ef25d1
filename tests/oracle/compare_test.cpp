// compare(): multiset vs ordered rows, tie groups, ORDER BY ... LIMIT ties, and the first
// difference reported in words.
#include "jbench/oracle/compare.h"

#include <gtest/gtest.h>

#include "jbench/oracle/limit_ties.h"
#include "oracle_test_support.h"
#include "value_printer.h"

namespace jbench::oracle {
namespace {

using V = Value;

using test_support::rows_of;

ResultSet failure(int code, std::string message) {
  return ResultSet{{}, {}, StatementError{code, std::move(message)}, std::nullopt};
}

Row r(std::int64_t a, std::string b) { return {V::integer(a), V::text(std::move(b))}; }

Normalization ordered(std::vector<std::size_t> key = {}, bool limit_ties = false) {
  Normalization n;
  n.order = RowOrder::ordered;
  n.order_key = std::move(key);
  n.limit_ties = limit_ties;
  return n;
}

TEST(Compare, multiset_ignores_row_order) {
  EXPECT_FALSE(compare(rows_of({r(1, "a"), r(2, "b")}), rows_of({r(2, "b"), r(1, "a")}), {}));
}

TEST(Compare, multiset_counts_duplicates) {
  auto d = compare(rows_of({r(1, "a"), r(1, "a"), r(2, "b")}),
                   rows_of({r(1, "a"), r(2, "b"), r(2, "b")}), {});
  ASSERT_TRUE(d);
  EXPECT_EQ(d->kind, DivergenceKind::row);
}

TEST(Compare, ordered_reports_rows_out_of_order) {
  auto d = compare(rows_of({r(2, "b"), r(1, "a")}), rows_of({r(1, "a"), r(2, "b")}), ordered());
  ASSERT_TRUE(d);
  EXPECT_EQ(d->kind, DivergenceKind::row);
  EXPECT_EQ(d->row_index, 0u);
}

TEST(Compare, ordered_accepts_any_order_inside_a_tie_group) {
  // ORDER BY the first column: (1, 'a') and (1, 'b') tie, so either order is correct.
  auto target = rows_of({r(0, "z"), r(1, "b"), r(1, "a"), r(2, "c")});
  auto oracle = rows_of({r(0, "z"), r(1, "a"), r(1, "b"), r(2, "c")});
  EXPECT_FALSE(compare(target, oracle, ordered({0})));
  // Without a key the whole row is the key: no ties, the swap is a divergence.
  EXPECT_TRUE(compare(target, oracle, ordered()));
}

TEST(Compare, a_tie_group_is_still_compared_as_a_multiset) {
  auto d = compare(rows_of({r(1, "a"), r(1, "x")}), rows_of({r(1, "a"), r(1, "b")}), ordered({0}));
  ASSERT_TRUE(d);
  EXPECT_NE(d->what.find("within a tie group"), std::string::npos) << d->what;
}

TEST(Compare, limit_ties_accepts_other_rows_of_the_last_tie_group) {
  // ORDER BY grp LIMIT 3 where grp 10 has more rows than fit: any of them is correct.
  auto target = rows_of({r(5, "a"), r(10, "q"), r(10, "r")});
  auto oracle = rows_of({r(5, "a"), r(10, "x"), r(10, "y")});
  EXPECT_FALSE(compare(target, oracle, ordered({0}, true)));
  EXPECT_TRUE(compare(target, oracle, ordered({0}, false)));
}

TEST(Compare, limit_ties_still_checks_the_rows_before_the_last_group_and_its_key) {
  auto oracle = rows_of({r(5, "a"), r(10, "x")});
  auto before = compare(rows_of({r(5, "b"), r(10, "x")}), oracle, ordered({0}, true));
  ASSERT_TRUE(before);
  EXPECT_EQ(before->row_index, 0u);
  auto key = compare(rows_of({r(5, "a"), r(11, "x")}), oracle, ordered({0}, true));
  ASSERT_TRUE(key);
  EXPECT_EQ(key->row_index, 1u);
  EXPECT_NE(key->what.find("ORDER BY key"), std::string::npos) << key->what;
}

TEST(LimitTies, the_last_tie_group_must_hold_rows_of_the_unlimited_result_each_once) {
  // ORDER BY grp LIMIT 3; without the LIMIT grp 10 has the rows 'x', 'y' and 'z'.
  const std::vector<Row> unlimited = {r(5, "a"), r(10, "x"), r(10, "y"), r(10, "z"), r(12, "q")};
  EXPECT_FALSE(
      invented_tie_rows({r(5, "a"), r(10, "z"), r(10, "x")}, unlimited, ordered({0}, true)));
  auto invented =
      invented_tie_rows({r(5, "a"), r(10, "x"), r(10, "w")}, unlimited, ordered({0}, true));
  ASSERT_TRUE(invented);
  EXPECT_EQ(invented->row_index, 2u);
  EXPECT_NE(invented->what.find("(10, 'w')"), std::string::npos) << invented->what;
  // A row of the tie twice, where it exists once, is invented too.
  EXPECT_TRUE(invented_tie_rows({r(10, "x"), r(10, "x")}, unlimited, ordered({0}, true)));
}

TEST(LimitTies, the_limit_comes_off_a_literal_or_its_own_last_parameter_only) {
  const std::vector<Value> none;
  auto literal = without_trailing_limit("SELECT a FROM t ORDER BY a limit 3 ;", none);
  ASSERT_TRUE(literal);
  EXPECT_EQ(literal->sql, "SELECT a FROM t ORDER BY a");
  auto param = without_trailing_limit("SELECT a FROM t WHERE b > ?1 ORDER BY a LIMIT ?2",
                                      {V::integer(0), V::integer(5)});
  ASSERT_TRUE(param);
  EXPECT_EQ(param->sql, "SELECT a FROM t WHERE b > ?1 ORDER BY a");
  EXPECT_EQ(param->params, (std::vector<Value>{V::integer(0)}));
  // Not its own: the value is used elsewhere, or is not the last parameter.
  EXPECT_FALSE(without_trailing_limit("SELECT ?1 FROM t ORDER BY a LIMIT ?1", {V::integer(1)}));
  EXPECT_FALSE(without_trailing_limit("SELECT ?2 FROM t ORDER BY a LIMIT ?1",
                                      {V::integer(1), V::integer(2)}));
  // Nothing to take off: an OFFSET, an expression, a LIMIT inside a string, no LIMIT.
  EXPECT_FALSE(without_trailing_limit("SELECT a FROM t ORDER BY a LIMIT 3 OFFSET 1", none));
  EXPECT_FALSE(without_trailing_limit("SELECT a FROM t ORDER BY a LIMIT 1 + 2", none));
  EXPECT_FALSE(without_trailing_limit("SELECT 'LIMIT 3'", none));
  EXPECT_FALSE(without_trailing_limit("SELECT a FROM t ORDER BY a", none));
}

TEST(Compare, reports_the_first_differing_row_with_both_rows) {
  auto d = compare(rows_of({r(1, "a"), r(2, "b"), r(3, "x"), r(4, "y")}),
                   rows_of({r(1, "a"), r(2, "b"), r(3, "c"), r(4, "d")}), ordered());
  ASSERT_TRUE(d);
  EXPECT_EQ(d->kind, DivergenceKind::row);
  EXPECT_EQ(d->row_index, 2u);
  EXPECT_EQ(d->target_row, r(3, "x"));
  EXPECT_EQ(d->oracle_row, r(3, "c"));
  EXPECT_EQ(d->what, "row 2 differs: target (3, 'x'), oracle (3, 'c')");
  EXPECT_EQ(to_json(*d)["target_row"], "(3, 'x')");
}

TEST(Compare, reports_a_different_row_count) {
  auto d = compare(rows_of({r(1, "a")}), rows_of({r(1, "a"), r(2, "b")}), {});
  ASSERT_TRUE(d);
  EXPECT_EQ(d->kind, DivergenceKind::row_count);
  EXPECT_EQ(d->what, "target returned 1 rows, oracle 2");
}

TEST(Compare, reports_column_names_unless_told_not_to) {
  auto target = rows_of({}, {"count(*)"});
  auto oracle = rows_of({}, {"COUNT(*)"});
  auto d = compare(target, oracle, {});
  ASSERT_TRUE(d);
  EXPECT_EQ(d->kind, DivergenceKind::column_names);
  Normalization n;
  n.compare_column_names = false;
  EXPECT_FALSE(compare(target, oracle, n));
  auto count = compare(rows_of({}, {"a", "b"}), oracle, n);
  ASSERT_TRUE(count);
  EXPECT_EQ(count->kind, DivergenceKind::column_count);
}

TEST(Compare, reports_an_error_against_a_result_naming_the_side) {
  auto d = compare(failure(1, "no such table: t"), rows_of({r(1, "a")}), {});
  ASSERT_TRUE(d);
  EXPECT_EQ(d->kind, DivergenceKind::error_vs_result);
  EXPECT_EQ(d->what,
            "the target failed with error 1 (no such table: t) where the oracle returned 1 rows");
  auto other = compare(rows_of({}), failure(19, "UNIQUE constraint failed"), {});
  ASSERT_TRUE(other);
  EXPECT_NE(other->what.find("the oracle failed"), std::string::npos) << other->what;
}

TEST(Compare, errors_match_by_primary_code_and_messages_only_when_asked) {
  // SQLITE_CONSTRAINT_UNIQUE (2067) and SQLITE_CONSTRAINT_PRIMARYKEY (1555) are both 19 & 0xff.
  EXPECT_FALSE(compare(failure(2067, "a"), failure(1555, "b"), {}));
  auto d = compare(failure(1, "x"), failure(19, "x"), {});
  ASSERT_TRUE(d);
  EXPECT_EQ(d->kind, DivergenceKind::different_errors);
  Normalization n;
  n.compare_error_messages = true;
  EXPECT_TRUE(compare(failure(1, "x"), failure(1, "y"), n));
}

// Rows given before the same error are compared when both sides gave some: a row made up before
// the error is a divergence; rows on one side only are not compared.
TEST(Compare, rows_before_the_same_error_are_compared_when_both_give_them) {
  auto failed_after = [](std::vector<Row> rows) {
    ResultSet f = failure(1, "jbench_fail");
    f.rows = std::move(rows);
    return f;
  };
  EXPECT_FALSE(
      compare(failed_after({r(1, "a"), r(2, "b")}), failed_after({r(2, "b"), r(1, "a")}), {}));
  auto d =
      compare(failed_after({r(1, "a"), r(9, "made up")}), failed_after({r(1, "a"), r(2, "b")}), {});
  ASSERT_TRUE(d);
  EXPECT_EQ(d->what.rfind("before the same error: ", 0), 0u) << d->what;
  EXPECT_FALSE(compare(failed_after({r(1, "a")}), failed_after({}), {}));
}

// Storage classes are compared: 1 and 1.0 differ, unless the comparison relaxes it explicitly.
TEST(Compare, integer_and_real_rows_differ_unless_relaxed) {
  EXPECT_TRUE(compare(rows_of({{V::integer(1)}}), rows_of({{V::real(1.0)}}), {}));
  Normalization relaxed;
  relaxed.integer_equals_exact_real = true;
  EXPECT_FALSE(compare(rows_of({{V::integer(1)}}), rows_of({{V::real(1.0)}}), relaxed));
  EXPECT_TRUE(compare(rows_of({{V::integer(1)}}), rows_of({{V::real(1.0000001)}}), relaxed));
}

}  // namespace
}  // namespace jbench::oracle
