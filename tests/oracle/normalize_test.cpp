// Value equality and row order under the Normalization's stated rules.
#include "jbench/oracle/normalize.h"

#include <gtest/gtest.h>

#include <cmath>

#include "jbench/oracle/compare.h"
#include "oracle_test_support.h"
#include "value_printer.h"

namespace jbench::oracle {
namespace {

using V = Value;

using test_support::rows_of;

TEST(Normalization, when_relaxed_an_integer_equals_the_real_that_is_exactly_it) {
  Normalization n;
  n.integer_equals_exact_real = true;
  EXPECT_TRUE(values_equal(V::integer(1), V::real(1.0), n));
  EXPECT_TRUE(values_equal(V::real(-3.0), V::integer(-3), n));
  EXPECT_FALSE(values_equal(V::integer(1), V::real(1.5), n));
  // 2^53 + 1 has no double: the nearest real, 2^53, is a different integer.
  EXPECT_FALSE(values_equal(V::integer(9007199254740993), V::real(9007199254740992.0), n));
  EXPECT_FALSE(values_equal(V::integer(INT64_MAX), V::real(9223372036854775808.0), n));
}

TEST(Normalization, integer_and_real_differ_by_default_storage_classes_are_compared) {
  Normalization n;
  EXPECT_FALSE(values_equal(V::integer(1), V::real(1.0), n));
  EXPECT_FALSE(values_equal(V::real(42.0), V::integer(42), n));
}

TEST(Normalization, null_and_empty_text_are_distinct_unless_stated) {
  Normalization n;
  EXPECT_FALSE(values_equal(V::null(), V::text(""), n));
  EXPECT_TRUE(values_equal(V::null(), V::null(), n));
  n.null_equals_empty_text = true;
  EXPECT_TRUE(values_equal(V::null(), V::text(""), n));
  EXPECT_TRUE(values_equal(V::text(""), V::null(), n));
  EXPECT_FALSE(values_equal(V::null(), V::text(" "), n));
}

TEST(Normalization, null_as_empty_text_sorts_with_it_in_a_multiset) {
  Normalization n;
  n.null_equals_empty_text = true;
  EXPECT_FALSE(
      compare(rows_of({{V::text("")}, {V::text("b")}}), rows_of({{V::text("b")}, {V::null()}}), n));
}

TEST(Normalization, reals_within_the_ulp_bound_are_equal_and_beyond_it_are_not) {
  Normalization n;
  n.relative_tolerance = 0;  // the ULP rule alone
  double x = 0.1;
  double four_up = x;
  for (int i = 0; i < 4; ++i) four_up = std::nextafter(four_up, 1.0);
  EXPECT_TRUE(values_equal(V::real(x), V::real(four_up), n));
  EXPECT_FALSE(values_equal(V::real(x), V::real(std::nextafter(four_up, 1.0)), n));
  // Across zero: +0 and -0 are equal, the smallest denormals either side are 2 ULPs apart.
  EXPECT_TRUE(values_equal(V::real(0.0), V::real(-0.0), n));
  EXPECT_TRUE(values_equal(V::real(4.9e-324), V::real(-4.9e-324), n));
}

TEST(Normalization, reals_within_the_relative_tolerance_are_equal_and_beyond_it_are_not) {
  Normalization n;
  n.max_ulps = 0;  // the relative rule alone
  n.relative_tolerance = 1e-9;
  EXPECT_TRUE(values_equal(V::real(1000.0), V::real(1000.0 + 0.5e-6), n));
  EXPECT_FALSE(values_equal(V::real(1000.0), V::real(1000.0 + 2e-6), n));
}

TEST(Normalization, infinities_equal_only_themselves) {
  Normalization n;
  double inf = INFINITY;
  EXPECT_TRUE(values_equal(V::real(inf), V::real(inf), n));
  EXPECT_FALSE(values_equal(V::real(inf), V::real(-inf), n));
  EXPECT_FALSE(values_equal(V::real(inf), V::real(1.7976931348623157e308), n));
}

TEST(Normalization, text_is_compared_as_bytes_and_never_equals_a_blob) {
  Normalization n;
  // "é" precomposed (U+00E9) and decomposed (e + U+0301) are different bytes: not equal.
  EXPECT_FALSE(values_equal(V::text("\xc3\xa9"), V::text("e\xcc\x81"), n));
  EXPECT_FALSE(values_equal(V::text("a"), V::text("A"), n));
  EXPECT_FALSE(values_equal(V::text("ab"), V::blob("ab"), n));
  EXPECT_TRUE(values_equal(V::blob(std::string("\0\1", 2)), V::blob(std::string("\0\1", 2)), n));
}

TEST(Normalization, is_recorded_as_json_with_every_rule) {
  Normalization n;
  n.order = RowOrder::ordered;
  n.order_key = {0, 2};
  n.limit_ties = true;
  nlohmann::json j = to_json(n);
  EXPECT_EQ(j["order"], "ordered");
  EXPECT_EQ(j["order_key"], nlohmann::json::array({0, 2}));
  EXPECT_EQ(j["limit_ties"], true);
  EXPECT_EQ(j["null_equals_empty_text"], false);
  EXPECT_EQ(j["integer_equals_exact_real"], false);
  EXPECT_EQ(j["max_ulps"], 4);
  EXPECT_EQ(j["relative_tolerance"], 1e-12);
  EXPECT_EQ(j["text_encoding"], "UTF-8");
  EXPECT_EQ(j["text_comparison"], "bytes");
}

}  // namespace
}  // namespace jbench::oracle
