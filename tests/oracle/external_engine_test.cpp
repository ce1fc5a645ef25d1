// External engines over the oracle's line protocol, as real processes: the sqlite3 shell
// (through jbench-oracle-sqlite3) agrees with in-process SQLite on the corpus and on a
// generated stream; a wrong cache behind the protocol is caught as it is in process; and an
// engine that crashes, hangs, exits, speaks garbage or sends malformed rows is a finding that
// names the statement, within its deadline, with the engine reaped — never a hang of jbench.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "jbench/oracle/generator.h"
#include "jbench/oracle/process_target.h"
#include "jbench/oracle/reduce.h"
#include "jbench/oracle/runner.h"
#include "jbench/oracle/sqlite_shell_target.h"
#include "jbench/oracle/sqlite_target.h"
#include "jbench/proc/run_tool.h"
#include "oracle_test_support.h"

namespace jbench::oracle {
namespace {

using test_support::memory_db;

ProcessTarget start(std::vector<std::string> argv, std::uint32_t timeout_ms = 5000) {
  auto t = ProcessTarget::start({argv, "", 5000, timeout_ms});
  if (!t) ADD_FAILURE() << t.error().message;
  return std::move(t).value();
}

ProcessTarget shell() { return start({JBENCH_ORACLE_SQLITE3_ADAPTER}); }

std::vector<Corpus> checked_in_corpus() {
  std::vector<Corpus> out;
  for (const auto& e : std::filesystem::directory_iterator(JBENCH_ORACLE_CORPUS_DIR)) {
    if (e.path().extension() != ".test") continue;
    ParsedCorpus p = read_corpus_file(e.path().string());
    if (p.corpus) out.push_back(std::move(*p.corpus));
  }
  return out;
}

TEST(ExternalEngine, the_sqlite3_shell_agrees_with_sqlite_on_the_corpus) {
  std::size_t compared = 0;
  for (const Corpus& c : checked_in_corpus()) {
    ProcessTarget target = shell();
    SqliteTarget oracle = memory_db();
    RunReport r = run_corpus(c, target, oracle);
    EXPECT_TRUE(r.clean()) << c.file << ": "
                           << (r.divergences.empty() ? "" : describe(r.divergences[0]))
                           << (r.target_failures.empty() ? "" : describe(r.target_failures[0]));
    EXPECT_FALSE(r.prepared_supported);  // the shell has no prepared statements
    EXPECT_EQ(r.target_name, "engine:sqlite3 3.40.1 (shell)");
    compared += r.statements_compared;
  }
  EXPECT_GT(compared, 100u);
}

TEST(ExternalEngine, the_sqlite3_shell_agrees_with_sqlite_on_a_generated_stream) {
  ProcessTarget target = shell();
  SqliteTarget oracle = memory_db();
  RunReport r = run_corpus(generate_stream({.seed = 31, .statements = 100'000}), target, oracle);
  for (const Finding& f : r.divergences) ADD_FAILURE() << describe(f);
  EXPECT_TRUE(r.target_failures.empty());
  EXPECT_GT(r.statements_compared, 100'000u);
}

TEST(ExternalEngine, a_wrong_cache_behind_the_protocol_is_caught) {
  ProcessTarget target = start({JBENCH_ORACLE_FIXTURE_ENGINE, "--cache", "survives-reset"});
  EXPECT_TRUE(target.supports_prepared());
  SqliteTarget oracle = memory_db();
  ParsedCorpus p = read_corpus_file(JBENCH_ORACLE_CORPUS_DIR + "/result_cache.test");
  ASSERT_TRUE(p.corpus);
  RunReport r = run_corpus(*p.corpus, target, oracle);
  ASSERT_FALSE(r.divergences.empty());
  EXPECT_EQ(r.divergences[0].sql, "SELECT (SELECT sum(balance) FROM acct WHERE owner = ?1)");
  EXPECT_EQ(r.divergences[0].target_result, "1 row: (125)");
  EXPECT_EQ(r.divergences[0].oracle_result, "1 row: (2125)");
}

// The reduction's script runs in the real sqlite3 shell.
void expect_the_shell_runs(const Reduction& red, const std::string& name) {
  const std::string script = test_support::temp_path(name + ".sql");
  std::ofstream(script) << to_sql_script(red);
  const proc::ToolRun shell = proc::run_to_completion(
      {"/bin/sh", "-c", "exec sqlite3 -batch :memory: < " + script}, std::nullopt, 20000);
  std::filesystem::remove(script);
  ASSERT_TRUE(shell.started) << shell.error;
  EXPECT_EQ(shell.exit_code, 0) << shell.err << to_sql_script(red);
}

// The fixture engine run over one corpus file against SQLite; `args` make it lie, or not.
RunReport corpus_run(std::vector<std::string> args, const std::string& file) {
  args.insert(args.begin(), JBENCH_ORACLE_FIXTURE_ENGINE);
  ProcessTarget target = start(args);
  SqliteTarget oracle = memory_db();
  ParsedCorpus p = read_corpus_file(JBENCH_ORACLE_CORPUS_DIR + "/" + file);
  EXPECT_TRUE(p.corpus) << file;
  return p.corpus ? run_corpus(*p.corpus, target, oracle) : RunReport{};
}

// An engine that answers every integer as the real of the same value (42.0 for 42) is caught:
// storage classes are compared, against the corpus's expectations and against the oracle.
TEST(ExternalEngine, an_engine_that_returns_integers_as_reals_is_caught) {
  RunReport r = corpus_run({"--lie", "integers-as-reals"}, "scalar_subqueries.test");
  ASSERT_FALSE(r.divergences.empty());
  EXPECT_EQ(r.divergences[0].sql, "SELECT (SELECT count(*) FROM t)");
  EXPECT_EQ(r.divergences[0].target_result, "1 row: (4.0)");
  EXPECT_TRUE(r.target_failures.empty());
  // The same engine telling no lie agrees.
  RunReport clean = corpus_run({}, "scalar_subqueries.test");
  EXPECT_GT(clean.statements_compared, 0u);
  for (const Finding& f : clean.divergences) ADD_FAILURE() << describe(f);
}

// An engine that reports every failure as a generic error (a UNIQUE violation as SQLITE_ERROR) is
// caught: two failures compare by their primary result codes.
TEST(ExternalEngine, an_engine_that_reports_the_wrong_error_code_is_caught) {
  RunReport r = corpus_run({"--lie", "generic-errors"}, "errors.test");
  ASSERT_FALSE(r.divergences.empty());
  EXPECT_NE(r.divergences[0].what.find("fails with primary code 1 on the target but 19 on the "
                                       "oracle"),
            std::string::npos)
      << describe(r.divergences[0]);
  EXPECT_TRUE(r.target_failures.empty());
}

// An engine that sorts NULLs last where SQLite sorts them first is caught by the corpus's ORDER BY
// over a nullable column.
TEST(ExternalEngine, an_engine_that_orders_nulls_last_is_caught) {
  RunReport r = corpus_run({"--lie", "nulls-last"}, "scalar_subqueries.test");
  ASSERT_FALSE(r.divergences.empty());
  EXPECT_EQ(r.divergences[0].sql, "SELECT id, v FROM t ORDER BY v, id");
  EXPECT_TRUE(r.target_failures.empty());
}

// An engine that makes up the last row of an ORDER BY ... LIMIT answer — the right key, the
// right count, a row that does not exist — is caught: the rows of the last tie group are looked
// up in the oracle's result of the statement without its LIMIT. The finding reduces to a short
// script that the sqlite3 shell runs, ending with that statement.
TEST(ExternalEngine, an_engine_that_invents_rows_in_a_limit_over_ties_is_caught) {
  RunReport r = corpus_run({"--lie", "invented-ties"}, "scalar_subqueries.test");
  ASSERT_FALSE(r.divergences.empty());
  const Finding& f = r.divergences[0];
  EXPECT_EQ(f.sql, "SELECT grp, id FROM t ORDER BY grp DESC LIMIT 3");
  EXPECT_NE(f.what.find("is not a row of the statement without its LIMIT"), std::string::npos)
      << describe(f);
  EXPECT_TRUE(r.target_failures.empty());

  ParsedCorpus p = read_corpus_file(JBENCH_ORACLE_CORPUS_DIR + "/scalar_subqueries.test");
  ASSERT_TRUE(p.corpus);
  TargetFactory make_target = [] {
    return std::make_unique<ProcessTarget>(
        start({JBENCH_ORACLE_FIXTURE_ENGINE, "--lie", "invented-ties"}));
  };
  TargetFactory make_oracle = [] { return std::make_unique<SqliteTarget>(memory_db()); };
  Reduction red = reduce(*p.corpus, f, make_target, make_oracle);
  ASSERT_TRUE(red.reproduced) << describe(f);
  EXPECT_LE(red.records.size(), 10u) << to_sql_script(red);
  EXPECT_EQ(red.records.back().sql, f.sql);
  expect_the_shell_runs(red, "invented-ties");
}

// The same lie on generated statements: their top-N queries are checked the same way.
TEST(ExternalEngine, invented_tie_rows_are_caught_in_generated_statements_too) {
  ProcessTarget target = start({JBENCH_ORACLE_FIXTURE_ENGINE, "--lie", "invented-ties"});
  SqliteTarget oracle = memory_db();
  RunReport r = run_corpus(generate_stream({.seed = 7, .statements = 2000}), target, oracle);
  ASSERT_FALSE(r.divergences.empty());
  EXPECT_NE(r.divergences[0].sql.find("ORDER BY val DESC LIMIT ?1"), std::string::npos)
      << describe(r.divergences[0]);
  EXPECT_NE(r.divergences[0].what.find("without its LIMIT"), std::string::npos);
}

// Lies that only a composed statement shows: the corpus and the generator's 27 templates never
// say GLOB or NOT IN over a list. Each is caught in a generated stream at a composed query, which
// reduces to a short script the sqlite3 shell runs; and the checked-in corpus passes it.
class ComposedOnlyLie : public ::testing::TestWithParam<std::string> {};

TEST_P(ComposedOnlyLie, is_caught_at_a_composed_query_and_reduced_to_a_script_the_shell_runs) {
  const std::string lie = GetParam();
  const Corpus stream = generate_stream({.seed = 41, .statements = 3000});
  ProcessTarget target = start({JBENCH_ORACLE_FIXTURE_ENGINE, "--lie", lie});
  SqliteTarget oracle = memory_db();
  RunOptions stop;
  stop.stop_at_first = true;
  RunReport r = run_corpus(stream, target, oracle, stop);
  ASSERT_FALSE(r.divergences.empty()) << lie;
  const Finding& f = r.divergences[0];
  const Record& found = stream.records.at(f.where.line - 1);
  EXPECT_TRUE(found.shape.starts_with("composed_")) << found.shape << ": " << found.sql;
  EXPECT_NE(f.sql.find(lie == "glob-ignores-case" ? " GLOB '" : " NOT IN ("), std::string::npos)
      << describe(f);

  TargetFactory make_target = [&] {
    return std::make_unique<ProcessTarget>(start({JBENCH_ORACLE_FIXTURE_ENGINE, "--lie", lie}));
  };
  TargetFactory make_oracle = [] { return std::make_unique<SqliteTarget>(memory_db()); };
  Reduction red = reduce(stream, f, make_target, make_oracle);
  ASSERT_TRUE(red.reproduced) << describe(f);
  EXPECT_LE(red.records.size(), 10u) << to_sql_script(red);
  EXPECT_EQ(red.records.back().sql, f.sql);
  expect_the_shell_runs(red, lie);

  for (const Corpus& c : checked_in_corpus()) {
    ProcessTarget liar = start({JBENCH_ORACLE_FIXTURE_ENGINE, "--lie", lie});
    SqliteTarget right = memory_db();
    RunReport on_corpus = run_corpus(c, liar, right);
    for (const Finding& d : on_corpus.divergences) ADD_FAILURE() << describe(d);
  }
}

INSTANTIATE_TEST_SUITE_P(Oracle, ComposedOnlyLie,
                         ::testing::Values("glob-ignores-case", "not-in-ignores-null"),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           std::string n = p.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

// An engine that loses the names a statement gives its columns is caught: where both engines
// name them, the names are compared.
TEST(ExternalEngine, an_engine_that_renames_columns_is_caught) {
  RunReport r = corpus_run({"--lie", "renamed-columns"}, "scalar_subqueries.test");
  ASSERT_FALSE(r.divergences.empty());
  EXPECT_NE(r.divergences[0].what.find("column 0 is named 'c0' by the target"), std::string::npos)
      << describe(r.divergences[0]);
  EXPECT_EQ(r.columns_unreported, 0u);
  // One that names none is not compared by name, and the run counts every such answer.
  RunReport nameless = corpus_run({"--lie", "no-column-names"}, "scalar_subqueries.test");
  for (const Finding& f : nameless.divergences) ADD_FAILURE() << describe(f);
  EXPECT_GT(nameless.columns_unreported, 0u);
}

struct Fault {
  std::string mode;
  std::string says;  // a piece of the finding's words
};

class MisbehavingEngine : public ::testing::TestWithParam<Fault> {};

TEST_P(MisbehavingEngine, is_a_finding_naming_the_statement_within_the_deadline) {
  const Fault& fault = GetParam();
  ProcessTarget target =
      start({JBENCH_ORACLE_FIXTURE_ENGINE, "--fault", fault.mode, "--at", "3"}, 1500);
  SqliteTarget oracle = memory_db();
  ParsedCorpus p = read_corpus_file(JBENCH_ORACLE_CORPUS_DIR + "/errors.test");
  ASSERT_TRUE(p.corpus);
  auto begin = std::chrono::steady_clock::now();
  RunReport r = run_corpus(*p.corpus, target, oracle);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  EXPECT_LT(seconds, 5.0);  // the 1.5 s statement deadline, the reaping, a margin
  ASSERT_EQ(r.target_failures.size(), 1u);
  const Finding& f = r.target_failures[0];
  EXPECT_EQ(f.kind, FindingKind::target_failure);
  // The third record of the file is the one the engine failed on, and the run stopped there.
  EXPECT_EQ(f.where.line, p.corpus->records[2].where.line);
  EXPECT_EQ(f.sql, p.corpus->records[2].sql);
  EXPECT_EQ(r.records_played, 3u);
  EXPECT_TRUE(r.stopped_early);
  EXPECT_NE(f.what.find(fault.says), std::string::npos) << f.what;
  EXPECT_NE(describe(f).find("engine failure"), std::string::npos) << describe(f);
  // Gone for good: later statements fail at once, naming why.
  ASSERT_TRUE(target.gone());
  ResultSet again = target.run("SELECT 1", {});
  ASSERT_TRUE(again.engine_failure);
  EXPECT_NE(again.engine_failure->find("the engine is gone"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(
    Oracle, MisbehavingEngine,
    ::testing::Values(Fault{"crash", "signal 6"}, Fault{"hang", "no answer within 1500 ms"},
                      Fault{"exit", "it ended with exit 0"},
                      Fault{"garbage", "not a JSON object: I am not JSON"},
                      Fault{"wrong-id", "not for request 3"},
                      Fault{"bad-literal", "not an SQL literal: \"forty-two\""},
                      Fault{"ragged-row", "row 1 has 1 values where 2 were expected"}),
    [](const ::testing::TestParamInfo<Fault>& p) {
      std::string n = p.param.mode;
      std::replace(n.begin(), n.end(), '-', '_');
      return n;
    });

TEST(ExternalEngine, an_engine_that_dies_between_statements_is_a_finding_not_a_sigpipe) {
  ProcessTarget target =
      start({JBENCH_ORACLE_FIXTURE_ENGINE, "--fault", "answer-then-exit", "--at", "1"});
  EXPECT_TRUE(target.run("SELECT 1", {}).ok());
  ::usleep(100'000);  // the engine is gone before the next request is written
  ResultSet r = target.run("SELECT 2", {});
  ASSERT_TRUE(r.engine_failure);  // and this test process is still alive to see it
  EXPECT_NE(r.engine_failure->find("fixture: exiting after request 1"), std::string::npos)
      << *r.engine_failure;
}

TEST(ExternalEngine, the_engines_stderr_is_quoted_when_it_fails) {
  ProcessTarget target = start({JBENCH_ORACLE_FIXTURE_ENGINE, "--fault", "crash", "--at", "1"});
  ResultSet r = target.run("SELECT 1", {});
  ASSERT_TRUE(r.engine_failure);
  EXPECT_NE(r.engine_failure->find("fixture: fault crash at request 1"), std::string::npos)
      << *r.engine_failure;
}

TEST(ExternalEngine, an_engine_that_never_says_hello_is_refused_at_its_deadline) {
  auto begin = std::chrono::steady_clock::now();
  auto t = ProcessTarget::start({{JBENCH_ORACLE_FIXTURE_ENGINE, "--fault", "no-hello"}, "", 800});
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  ASSERT_FALSE(t);
  EXPECT_LT(seconds, 3.0);
  EXPECT_NE(t.error().message.find("said no hello: no answer within 800 ms"), std::string::npos)
      << t.error().message;
  EXPECT_NE(t.error().message.find("fixture: never says hello"), std::string::npos)
      << t.error().message;
}

TEST(ExternalEngine, another_protocol_and_a_missing_program_are_refused_with_the_reason) {
  auto other = ProcessTarget::start({{JBENCH_ORACLE_FIXTURE_ENGINE, "--fault", "bad-hello"}, ""});
  ASSERT_FALSE(other);
  EXPECT_NE(other.error().message.find("speaks \"some-other/9\""), std::string::npos)
      << other.error().message;
  auto missing = ProcessTarget::start({{"/nonexistent/engine"}, ""});
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("/nonexistent/engine"), std::string::npos);
  auto not_on_path = ProcessTarget::start({{"no-such-engine-anywhere"}, ""});
  ASSERT_FALSE(not_on_path);
  EXPECT_NE(not_on_path.error().message.find("not on PATH"), std::string::npos);
}

TEST(ExternalEngine, quits_and_leaves_no_process_behind) {
  {
    ProcessTarget target =
        start({JBENCH_ORACLE_FIXTURE_ENGINE, "--fault", "hang", "--at", "2"}, 500);
    EXPECT_TRUE(target.run("SELECT 1", {}).ok());
    ResultSet hung = target.run("SELECT 2", {});
    ASSERT_TRUE(hung.engine_failure);
    EXPECT_NE(hung.engine_failure->find("jbench killed it"), std::string::npos);
  }
  {
    ProcessTarget healthy = start({JBENCH_ORACLE_FIXTURE_ENGINE});
    EXPECT_TRUE(healthy.run("SELECT 1", {}).ok());
  }
  // Every engine this test started is reaped: none is left as a child of the test.
  EXPECT_EQ(::waitpid(-1, nullptr, WNOHANG), -1);
}

TEST(SqliteShell, quote_output_parses_into_typed_rows_and_errors) {
  ResultSet r = parse_quote_output({"1,'a''b',NULL,X'00ff',1.5,3.0,Inf,-Inf,'x", "y',''"});
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.rows.size(), 1u);
  ASSERT_EQ(r.rows[0].size(), 10u);
  EXPECT_EQ(r.rows[0][1], Value::text("a'b"));
  EXPECT_EQ(r.rows[0][2], Value::null());
  EXPECT_EQ(r.rows[0][3], Value::blob(std::string("\x00\xff", 2)));
  EXPECT_EQ(r.rows[0][5], Value::real(3.0));
  EXPECT_TRUE(std::isinf(r.rows[0][6].real_value) && r.rows[0][6].real_value > 0);
  EXPECT_EQ(r.rows[0][8], Value::text("x\ny"));
  EXPECT_EQ(r.rows[0][9], Value::text(""));

  ResultSet e = parse_quote_output(
      {"1", "Runtime error near line 3: UNIQUE constraint failed: t.a (19)", "  context"});
  ASSERT_TRUE(e.error);
  EXPECT_EQ(e.error->code, 19);
  EXPECT_EQ(e.error->message, "UNIQUE constraint failed: t.a");
  EXPECT_EQ(e.rows.size(), 1u);  // the row before the error is kept
  ResultSet parse = parse_quote_output({"Parse error near line 1: no such table: x"});
  ASSERT_TRUE(parse.error);
  EXPECT_EQ(parse.error->code, 1);
  ResultSet junk = parse_quote_output({"1,2", "what?"});
  ASSERT_TRUE(junk.engine_failure);
  EXPECT_NE(junk.engine_failure->find("what?"), std::string::npos);
}

}  // namespace
}  // namespace jbench::oracle
