// The corpus runner over Targets: a wrong target is caught with file:line, SQL, params and both
// results; two equal engines agree on the checked-in corpus; the oracle disagreeing with the
// corpus is an expectation failure, reported apart from divergences.
#include "jbench/oracle/runner.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "jbench/oracle/sqlite_target.h"
#include "oracle_test_support.h"
#include "support/subquery_cache_target.h"
#include "value_printer.h"

namespace jbench::oracle {
namespace {

const std::string corpus_path = JBENCH_ORACLE_CORPUS_DIR + "/scalar_subqueries.test";

using test_support::memory_db;

Corpus load(const std::string& path) {
  ParsedCorpus p = read_corpus_file(path);
  if (p.error) ADD_FAILURE() << format_diagnostic(*p.error);
  return p.corpus.value_or(Corpus{});
}

Corpus parse(std::string_view text) {
  ParsedCorpus p = parse_corpus(text, "inline.test");
  if (p.error) ADD_FAILURE() << format_diagnostic(*p.error);
  return p.corpus.value_or(Corpus{});
}

// The 1-based number of the first line of `path` equal to `text`, read independently of the
// parser so the test checks the location the runner reports, not the parser against itself.
std::uint32_t line_of(const std::string& path, const std::string& text) {
  std::ifstream in(path);
  std::string line;
  for (std::uint32_t n = 1; std::getline(in, line); ++n) {
    if (line == text) return n;
  }
  ADD_FAILURE() << "no line '" << text << "' in " << path;
  return 0;
}

// Every statement fails: a target as wrong as can be, for the bound and stop-at-first.
class AlwaysFailingTarget : public Target {
 public:
  ResultSet run(std::string_view, const std::vector<Value>&) override {
    ResultSet r;
    r.error = StatementError{1, "always fails"};
    return r;
  }
  ResultSet run_prepared(const std::string&, std::string_view sql,
                         const std::vector<Value>& params) override {
    return run(sql, params);
  }
  std::string name() const override { return "always-failing"; }
};

TEST(Runner, sqlite_against_sqlite_on_the_corpus_has_no_findings) {
  Corpus corpus = load(corpus_path);
  ASSERT_FALSE(corpus.records.empty());
  SqliteTarget target = memory_db();
  SqliteTarget oracle = memory_db();  // a second, separate :memory: database
  RunReport r = run_corpus(corpus, target, oracle);
  EXPECT_EQ(r.records_played, corpus.records.size());
  EXPECT_EQ(r.statements_compared, corpus.records.size());
  for (const Finding& f : r.divergences) ADD_FAILURE() << describe(f);
  for (const Finding& f : r.expectation_failures) ADD_FAILURE() << describe(f);
  EXPECT_TRUE(r.clean());
  EXPECT_EQ(r.target_name, "sqlite::memory:");
}

TEST(Runner, a_cache_that_ignores_parameters_is_caught_on_the_corpus) {
  Corpus corpus = load(corpus_path);
  // Connection-wide and keyed by the subquery's text alone.
  testing::SubqueryCacheTarget target(
      memory_db(), {testing::CacheScope::connection, false, false, false}, "param-blind");
  SqliteTarget oracle = memory_db();
  RunReport r = run_corpus(corpus, target, oracle);
  ASSERT_GE(r.divergences.size(), 1u);
  EXPECT_TRUE(r.expectation_failures.empty());  // the oracle is real SQLite: the corpus holds

  // The corpus runs the same SQL with params 4, 'zz' and then 99, 'zz'; the second is served
  // from the cache of the first.
  const Finding& f = r.divergences[0];
  EXPECT_EQ(f.kind, FindingKind::divergence);
  EXPECT_EQ(f.where.file, corpus_path);
  EXPECT_EQ(f.where.line, line_of(corpus_path, "params: 99, 'zz'"));
  EXPECT_EQ(f.sql, "SELECT coalesce((SELECT v FROM t WHERE id = ?1), ?2)");
  EXPECT_EQ(f.params, (Row{Value::integer(99), Value::text("zz")}));
  EXPECT_EQ(f.target_result, "1 row: ('d')");
  EXPECT_EQ(f.oracle_result, "1 row: ('zz')");
  EXPECT_EQ(f.what, "row 0 differs: target ('d'), oracle ('zz')");
  EXPECT_EQ(f.normalization.at("order"), "multiset");

  std::string text = describe(f);
  EXPECT_NE(text.find(corpus_path + ":" + std::to_string(f.where.line) + ": divergence: "),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("params: (99, 'zz')"), std::string::npos) << text;
  EXPECT_NE(text.find("target: 1 row: ('d')"), std::string::npos) << text;
  EXPECT_NE(text.find("oracle: 1 row: ('zz')"), std::string::npos) << text;
}

TEST(Runner, the_oracle_disagreeing_with_the_corpus_is_an_expectation_failure) {
  Corpus corpus = parse(
      "statement ok\nCREATE TABLE t(x)\n\n"
      "statement ok\nINSERT INTO t VALUES (1), (2)\n\n"
      "# wrong on purpose: the sum is 3\n"
      "query I\nSELECT (SELECT sum(x) FROM t)\n----\n4\n");
  SqliteTarget target = memory_db();
  SqliteTarget oracle = memory_db();
  RunReport r = run_corpus(corpus, target, oracle);
  EXPECT_TRUE(r.divergences.empty());  // both engines agree; only the corpus is wrong
  ASSERT_EQ(r.expectation_failures.size(), 1u);
  const Finding& f = r.expectation_failures[0];
  EXPECT_EQ(f.kind, FindingKind::expectation_failure);
  EXPECT_EQ(f.where.file, "inline.test");
  EXPECT_EQ(f.where.line, 8u);  // its header line: a comment is not part of the record
  EXPECT_EQ(f.oracle_result, "1 row: (3)");
  EXPECT_EQ(f.expected, "1 row: (4)");
  EXPECT_NE(f.what.find("row 0 differs: target (3), oracle (4)"), std::string::npos) << f.what;
  EXPECT_NE(describe(f).find("inline.test:8: expectation failure: "), std::string::npos);
}

TEST(Runner, a_statement_record_with_the_wrong_outcome_is_an_expectation_failure) {
  Corpus corpus = parse("statement error\nSELECT 1\n");
  SqliteTarget target = memory_db();
  SqliteTarget oracle = memory_db();
  RunReport r = run_corpus(corpus, target, oracle);
  EXPECT_TRUE(r.divergences.empty());
  ASSERT_EQ(r.expectation_failures.size(), 1u);
  EXPECT_EQ(r.expectation_failures[0].what, "the corpus expects an error, the oracle gave ok");
  EXPECT_EQ(r.expectation_failures[0].where.line, 1u);
}

TEST(Runner, a_statement_ok_on_one_side_and_an_error_on_the_other_is_a_divergence) {
  Corpus corpus = parse("statement ok\nCREATE TABLE t(x)\n");
  SqliteTarget target = memory_db();
  ASSERT_TRUE(target.run("CREATE TABLE t(x)", {}).ok());  // so the corpus's CREATE fails there
  SqliteTarget oracle = memory_db();
  RunReport r = run_corpus(corpus, target, oracle);
  ASSERT_EQ(r.divergences.size(), 1u);
  EXPECT_TRUE(r.expectation_failures.empty());
  const Finding& f = r.divergences[0];
  EXPECT_EQ(f.what, "the statement is an error on the target but ok on the oracle");
  EXPECT_EQ(f.target_result, "error 1: table t already exists");
  EXPECT_EQ(f.oracle_result, "0 rows");
  EXPECT_TRUE(f.normalization.is_null());
}

TEST(Runner, findings_are_bounded_and_the_rest_counted) {
  Corpus corpus = parse("query I\nSELECT 1\n\nquery I\nSELECT 2\n\nquery I\nSELECT 3\n");
  AlwaysFailingTarget target;
  SqliteTarget oracle = memory_db();
  RunOptions options;
  options.max_findings = 1;
  RunReport r = run_corpus(corpus, target, oracle, options);
  EXPECT_EQ(r.records_played, 3u);
  EXPECT_EQ(r.divergences.size(), 1u);
  EXPECT_EQ(r.divergences_left_off, 2u);
  EXPECT_FALSE(r.stopped_early);
}

TEST(Runner, stop_at_first_stops_after_the_first_finding) {
  Corpus corpus = parse("query I\nSELECT 1\n\nquery I\nSELECT 2\n");
  AlwaysFailingTarget target;
  SqliteTarget oracle = memory_db();
  RunOptions options;
  options.stop_at_first = true;
  RunReport r = run_corpus(corpus, target, oracle, options);
  EXPECT_EQ(r.records_played, 1u);
  EXPECT_EQ(r.divergences.size(), 1u);
  EXPECT_TRUE(r.stopped_early);
}

TEST(Runner, the_default_bound_is_100) { EXPECT_EQ(RunOptions{}.max_findings, 100u); }

}  // namespace
}  // namespace jbench::oracle
