// The corpus parser: a good file parses into records; each kind of syntax error names its line
// and column.
#include <gtest/gtest.h>

#include "jbench/oracle/corpus.h"
#include "value_printer.h"

namespace jbench::oracle {
namespace {

using V = Value;

constexpr const char* kGood = R"(# a comment
statement ok
CREATE TABLE t(a, b)

statement error
SELECT nope

params: 1, 'it''s', NULL
engine-rule: sqlite: first row
engine-rule: standard: error
query IAR ordered key=1,3 limit-ties
SELECT ?1,
       ?2, 1.5 LIMIT 5
----
1, 'it''s', 1.5
NULL, x'00ff', 2

query A
SELECT 1
----

query I
SELECT 2
)";

TEST(CorpusParse, parses_every_kind_of_record) {
  ParsedCorpus p = parse_corpus(kGood, "good.test");
  ASSERT_FALSE(p.error) << format_diagnostic(*p.error);
  const auto& recs = p.corpus->records;
  ASSERT_EQ(recs.size(), 5u);
  EXPECT_EQ(recs[0].kind, RecordKind::statement_ok);
  EXPECT_EQ(recs[0].where.line, 2u);
  EXPECT_EQ(recs[0].sql, "CREATE TABLE t(a, b)");
  EXPECT_EQ(recs[1].kind, RecordKind::statement_error);

  const Record& q = recs[2];
  EXPECT_EQ(q.kind, RecordKind::query);
  EXPECT_EQ(q.where.line, 8u);
  EXPECT_EQ(q.params, (std::vector<Value>{V::integer(1), V::text("it's"), V::null()}));
  ASSERT_EQ(q.engine_rules.size(), 2u);
  EXPECT_EQ(q.engine_rules[0].engine, "sqlite");
  EXPECT_EQ(q.engine_rules[0].rule, "first row");
  EXPECT_EQ(q.column_types, "IAR");
  EXPECT_EQ(q.order, RowOrder::ordered);
  EXPECT_EQ(q.order_key, (std::vector<std::size_t>{0, 2}));
  EXPECT_TRUE(q.limit_ties);
  EXPECT_EQ(q.sql, "SELECT ?1,\n       ?2, 1.5 LIMIT 5");
  // limit-ties: the statement without its LIMIT, for the oracle to check the last tie group.
  ASSERT_TRUE(q.unlimited);
  EXPECT_EQ(q.unlimited->sql, "SELECT ?1,\n       ?2, 1.5");
  EXPECT_EQ(q.unlimited->params, q.params);
  ASSERT_TRUE(q.has_expected);
  ASSERT_EQ(q.expected.size(), 2u);
  EXPECT_EQ(q.expected[1], (Row{V::null(), V::blob(std::string("\0\xff", 2)), V::integer(2)}));

  EXPECT_TRUE(recs[3].has_expected);  // "----" with no rows: zero rows expected
  EXPECT_TRUE(recs[3].expected.empty());
  EXPECT_EQ(recs[3].order, RowOrder::multiset);
  EXPECT_FALSE(recs[4].has_expected);

  Normalization n = normalization_of(q);
  EXPECT_EQ(n.order, RowOrder::ordered);
  // Names are compared between two engines unless the run is told not to (an expected result
  // has none to compare).
  EXPECT_TRUE(n.compare_column_names);
}

TEST(CorpusParse, reads_crlf_files_like_lf_files) {
  ParsedCorpus p = parse_corpus("query I\r\nSELECT 1\r\n----\r\n1\r\n", "crlf.test");
  ASSERT_FALSE(p.error) << format_diagnostic(*p.error);
  EXPECT_EQ(p.corpus->records[0].sql, "SELECT 1");
}

struct BadCase {
  const char* name;
  const char* text;
  std::uint32_t line;
  std::uint32_t column;
  const char* message_part;
};

// Named in failure messages instead of gtest's byte dump.
void PrintTo(const BadCase& c, std::ostream* os) { *os << c.name; }

class CorpusSyntaxError : public testing::TestWithParam<BadCase> {};

TEST_P(CorpusSyntaxError, names_line_and_column) {
  const BadCase& c = GetParam();
  ParsedCorpus p = parse_corpus(c.text, "bad.test");
  ASSERT_TRUE(p.error) << "parsed: " << c.text;
  EXPECT_FALSE(p.corpus);
  EXPECT_EQ(p.error->where.file, "bad.test");
  EXPECT_EQ(p.error->where.line, c.line) << p.error->message;
  EXPECT_EQ(p.error->where.column, c.column) << p.error->message;
  EXPECT_NE(p.error->message.find(c.message_part), std::string::npos) << p.error->message;
  EXPECT_EQ(format_diagnostic(*p.error).rfind(
                "bad.test:" + std::to_string(c.line) + ":" + std::to_string(c.column) + ": ", 0),
            0u);
}

INSTANTIATE_TEST_SUITE_P(
    EachKind, CorpusSyntaxError,
    testing::Values(
        BadCase{"unknown_record", "statement ok\nSELECT 1\n\n  querry I\nSELECT 1\n", 4, 3,
                "unknown record 'querry'"},
        BadCase{"statement_without_ok", "statement fine\nSELECT 1\n", 1, 11, "'ok' or 'error'"},
        BadCase{"statement_trailing_word", "statement ok please\nSELECT 1\n", 1, 14,
                "nothing may follow"},
        BadCase{"query_without_types", "query\nSELECT 1\n", 1, 6, "column types"},
        BadCase{"unknown_column_type", "query IXT\nSELECT 1, 2, 3\n", 1, 8,
                "unknown column type 'X'"},
        BadCase{"unknown_option", "query I sorted\nSELECT 1\n", 1, 9, "unknown query option"},
        BadCase{"key_without_ordered", "query I rowsort key=1\nSELECT 1\n", 1, 17,
                "needs 'ordered'"},
        BadCase{"key_out_of_range", "query II ordered key=1,3\nSELECT 1, 2\n", 1, 24,
                "1-based column numbers from 1 to 2"},
        BadCase{"bad_param_literal", "params: 1, 'a', nul\nquery I\nSELECT 1\n", 1, 17,
                "expected a value"},
        BadCase{"unterminated_text", "params: 'abc\nquery I\nSELECT 1\n", 1, 9, "unterminated"},
        BadCase{"missing_comma", "query II\nSELECT 1, 2\n----\n1 2\n", 4, 3, "expected ','"},
        BadCase{"odd_blob", "query B\nSELECT 1\n----\nx'abc'\n", 4, 2, "even number"},
        BadCase{"bad_hex", "query B\nSELECT 1\n----\nx'0g'\n", 4, 4, "not a hex digit"},
        BadCase{"bad_engine_rule", "engine-rule: sqlite first row\nquery I\nSELECT 1\n", 1, 14,
                "engine-rule: <engine>: <what it does>"},
        BadCase{"row_width", "query II\nSELECT 1, 2\n----\n1, 2, 3\n", 4, 1,
                "the row has 3 values"},
        BadCase{"row_type", "query IT\nSELECT 1, 2\n----\n1, 2\n", 4, 1,
                "does not fit column type 'T'"},
        BadCase{"no_sql", "statement ok\n\n", 2, 1, "no SQL"},
        BadCase{"expected_on_statement", "statement ok\nSELECT 1\n----\n1\n", 3, 1, "only a query"},
        BadCase{"meta_without_record", "params: 1\n", 2, 1, "need a 'statement' or 'query'"},
        BadCase{"meta_after_sql", "query I\nSELECT ?1\nparams: 1\n", 3, 1, "before the SQL"}),
    [](const testing::TestParamInfo<BadCase>& p) { return std::string(p.param.name); });

TEST(CorpusParse, an_unreadable_file_is_an_error_naming_it) {
  ParsedCorpus p = read_corpus_file("/nonexistent/x.test");
  ASSERT_TRUE(p.error);
  EXPECT_EQ(p.error->where.file, "/nonexistent/x.test");
  EXPECT_EQ(p.error->where.line, 0u);
}

TEST(CorpusParse, limit_ties_needs_a_limit_the_oracle_can_take_off) {
  ParsedCorpus p =
      parse_corpus("query II ordered key=1 limit-ties\nSELECT a, b FROM t ORDER BY a\n", "t.test");
  ASSERT_TRUE(p.error);
  EXPECT_EQ(p.error->where.line, 1u);
  EXPECT_NE(p.error->message.find("LIMIT <n> or LIMIT ?N"), std::string::npos) << p.error->message;
}

}  // namespace
}  // namespace jbench::oracle
