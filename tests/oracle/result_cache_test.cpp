// Scalar-subquery result caches in front of real SQLite, against real SQLite as the oracle, on
// the checked-in corpus: each deliberately wrong cache is caught, and its divergence reduces to
// at most ten statements that the sqlite3 shell runs and that still show the oracle's answer;
// the correct cache (statement-scoped, parameter-aware, leaving nondeterministic functions
// alone, first row of several) is used and gives no finding at all.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "jbench/oracle/reduce.h"
#include "jbench/oracle/runner.h"
#include "jbench/oracle/sqlite_target.h"
#include "jbench/proc/run_tool.h"
#include "oracle_test_support.h"
#include "support/subquery_cache_target.h"

namespace jbench::oracle {
namespace {

using testing::CachePolicy;
using testing::SubqueryCacheTarget;

using test_support::memory_db;

std::vector<Corpus> checked_in_corpus() {
  std::vector<std::string> paths;
  for (const auto& e : std::filesystem::directory_iterator(JBENCH_ORACLE_CORPUS_DIR)) {
    if (e.path().extension() == ".test") paths.push_back(e.path().string());
  }
  std::sort(paths.begin(), paths.end());
  std::vector<Corpus> out;
  for (const std::string& p : paths) {
    ParsedCorpus parsed = read_corpus_file(p);
    if (parsed.error) ADD_FAILURE() << format_diagnostic(*parsed.error);
    if (parsed.corpus) out.push_back(std::move(*parsed.corpus));
  }
  return out;
}

struct Caught {
  Corpus corpus;
  Finding first;
};

// The first corpus file, in name order, where `policy` diverges from SQLite.
std::optional<Caught> first_divergence(const CachePolicy& policy) {
  for (Corpus& c : checked_in_corpus()) {
    SubqueryCacheTarget target(memory_db(), policy);
    SqliteTarget oracle = memory_db();
    RunReport r = run_corpus(c, target, oracle);
    EXPECT_TRUE(r.expectation_failures.empty()) << describe(r.expectation_failures[0]);
    if (!r.divergences.empty()) return Caught{std::move(c), r.divergences[0]};
  }
  return std::nullopt;
}

// The script through the real sqlite3 shell, in quote mode, with the oracle's functions loaded.
proc::ToolRun run_in_shell(const std::string& script) {
  auto dir =
      std::filesystem::temp_directory_path() / ("jbench-repro-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "repro.sql") << script;
  proc::ToolRun run =
      proc::run_to_completion({"/bin/sh", "-c",
                               "exec sqlite3 -batch -cmd '.load " + JBENCH_ORACLE_FUNCTIONS_MODULE +
                                   " jbench_oracle_functions_init' -cmd '.mode quote' :memory: < " +
                                   (dir / "repro.sql").string()},
                              std::nullopt, 20000, 1 << 20);
  std::filesystem::remove_all(dir);
  return run;
}

class WrongCache : public ::testing::TestWithParam<std::string> {};

TEST_P(WrongCache, is_caught_and_reduced_to_a_short_script_the_shell_runs) {
  std::optional<CachePolicy> policy = testing::cache_policy_named(GetParam());
  ASSERT_TRUE(policy);
  std::optional<Caught> caught = first_divergence(*policy);
  ASSERT_TRUE(caught) << GetParam() << " gave no divergence on the corpus";

  TargetFactory make_target = [&]() -> std::unique_ptr<Target> {
    return std::make_unique<SubqueryCacheTarget>(memory_db(), *policy);
  };
  TargetFactory make_oracle = [] { return std::make_unique<SqliteTarget>(memory_db()); };
  Reduction red = reduce(caught->corpus, caught->first, make_target, make_oracle);
  ASSERT_TRUE(red.reproduced) << describe(caught->first);
  EXPECT_FALSE(red.budget_exhausted);
  EXPECT_LE(red.records.size(), 10u) << to_sql_script(red);
  EXPECT_LE(red.records.size(), red.original_records);
  EXPECT_EQ(red.records.back().where.line, caught->first.where.line);

  // 1-minimal: without any one of the records before the last, the divergence is gone.
  for (std::size_t i = 0; i + 1 < red.records.size(); ++i) {
    Corpus fewer;
    fewer.records = red.records;
    fewer.records.erase(fewer.records.begin() + static_cast<std::ptrdiff_t>(i));
    SubqueryCacheTarget t(memory_db(), *policy);
    SqliteTarget o = memory_db();
    RunReport again = run_corpus(fewer, t, o);
    bool same =
        !again.divergences.empty() && again.divergences[0].where.line == caught->first.where.line;
    EXPECT_FALSE(same) << "record " << i << " could go:\n" << to_sql_script(red);
  }

  // The script is runnable SQL: the real shell runs it and its last line is the oracle's answer.
  std::string script = to_sql_script(red);
  proc::ToolRun shell = run_in_shell(script);
  ASSERT_TRUE(shell.started) << shell.error;
  EXPECT_EQ(shell.exit_code, 0) << shell.err;
  std::string out = shell.out;
  while (!out.empty() && out.back() == '\n') out.pop_back();
  std::string last_line =
      out.substr(out.rfind('\n') == std::string::npos ? 0 : out.rfind('\n') + 1);
  std::string oracle = red.finding.oracle_result;  // "1 row: (50)"
  std::string row = oracle.substr(oracle.find('(') + 1, oracle.rfind(')') - oracle.find('(') - 1);
  std::string shell_row;
  for (char c : row) {
    if (c != ' ') shell_row += c;  // quote mode separates values with ',' alone
  }
  EXPECT_EQ(last_line, shell_row) << script << "\n--- shell said:\n" << shell.out << shell.err;
}

INSTANTIATE_TEST_SUITE_P(Oracle, WrongCache,
                         ::testing::Values("ignores-parameters", "survives-reset",
                                           "across-statements", "caches-nondeterministic",
                                           "multi-row-last"),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           std::string n = p.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

TEST(CorrectCache, is_used_and_gives_no_finding_on_the_corpus) {
  std::size_t hits = 0, fills = 0, compared = 0;
  for (const Corpus& c : checked_in_corpus()) {
    SubqueryCacheTarget target(memory_db(), CachePolicy::correct());
    SqliteTarget oracle = memory_db();
    RunReport r = run_corpus(c, target, oracle);
    for (const Finding& f : r.divergences) ADD_FAILURE() << describe(f);
    for (const Finding& f : r.expectation_failures) ADD_FAILURE() << describe(f);
    hits += target.hits();
    fills += target.fills();
    compared += r.statements_compared;
  }
  EXPECT_GT(compared, 100u);
  // A cache that never cached would pass trivially: this one evaluated subqueries into it and
  // answered repeated ones from it.
  EXPECT_GT(fills, 20u);
  EXPECT_GT(hits, 0u);
}

TEST(CorrectCache, each_wrong_policy_differs_from_it_in_one_rule) {
  CachePolicy right = CachePolicy::correct();
  for (const std::string& name : testing::cache_policy_names()) {
    CachePolicy p = *testing::cache_policy_named(name);
    int differences = (p.scope != right.scope) +
                      (p.key_includes_params != right.key_includes_params) +
                      (p.caches_nondeterministic != right.caches_nondeterministic) +
                      (p.multi_row_takes_last != right.multi_row_takes_last);
    if (name == "correct") {
      EXPECT_EQ(differences, 0);
    } else if (name == "ignores-parameters") {
      EXPECT_EQ(differences, 2) << "a parameter-blind key only shows when entries outlive a run";
    } else {
      EXPECT_EQ(differences, 1) << name;
    }
  }
}

}  // namespace
}  // namespace jbench::oracle
