// The checked-in corpus against real SQLite: every record behaves as written and every expected
// result matches under the record's normalization. A failure names file:line and the divergence.
#include <gtest/gtest.h>

#include <filesystem>

#include "jbench/oracle/compare.h"
#include "jbench/oracle/corpus.h"
#include "jbench/oracle/sqlite_target.h"

namespace jbench::oracle {
namespace {

std::string where(const Record& r) { return r.where.file + ":" + std::to_string(r.where.line); }

// Runs every record of `corpus` on a fresh :memory: database; returns how many queries had an
// expected result that matched.
std::size_t run_and_check(const Corpus& corpus) {
  auto db = SqliteTarget::open(":memory:", {});
  EXPECT_TRUE(db) << db.error().message;
  if (!db) return 0;
  std::size_t matched = 0;
  for (const Record& r : corpus.records) {
    ResultSet result = r.prepared.empty() ? (*db).run(r.sql, r.params)
                                          : (*db).run_prepared(r.prepared, r.sql, r.params);
    switch (r.kind) {
      case RecordKind::statement_ok:
        EXPECT_TRUE(result.ok()) << where(r) << ": " << result.error->message;
        break;
      case RecordKind::statement_error:
        EXPECT_FALSE(result.ok()) << where(r) << ": the statement succeeded";
        break;
      case RecordKind::query:
        if (!r.has_expected) {
          EXPECT_TRUE(result.ok()) << where(r) << ": " << result.error->message;
          break;
        }
        if (auto d = compare(result, expected_of(r), normalization_of(r))) {
          ADD_FAILURE() << where(r) << ": " << d->what;
        } else {
          ++matched;
        }
        break;
    }
  }
  return matched;
}

TEST(CorpusOnSqlite, scalar_subqueries_match_their_expected_results) {
  ParsedCorpus p = read_corpus_file(JBENCH_ORACLE_CORPUS_DIR + "/scalar_subqueries.test");
  ASSERT_FALSE(p.error) << format_diagnostic(*p.error);
  std::size_t queries = 0;
  for (const Record& r : p.corpus->records) queries += r.kind == RecordKind::query;
  ASSERT_GT(queries, 15u);
  EXPECT_EQ(run_and_check(*p.corpus), queries);
}

TEST(CorpusOnSqlite, every_checked_in_corpus_file_parses_and_matches) {
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(JBENCH_ORACLE_CORPUS_DIR)) {
    if (entry.path().extension() != ".test") continue;
    ++files;
    ParsedCorpus p = read_corpus_file(entry.path().string());
    ASSERT_FALSE(p.error) << format_diagnostic(*p.error);
    run_and_check(*p.corpus);
  }
  EXPECT_GE(files, 1u);
}

// The check itself must be able to fail: a wrong expectation is caught, naming the record.
TEST(CorpusOnSqlite, a_wrong_expected_result_is_caught) {
  ParsedCorpus p = parse_corpus("query I\nSELECT (SELECT 1 UNION ALL SELECT 2)\n----\n2\n", "w");
  ASSERT_FALSE(p.error);
  auto db = SqliteTarget::open(":memory:", {});
  ASSERT_TRUE(db);
  const Record& r = p.corpus->records[0];
  auto d = compare((*db).run(r.sql, r.params), expected_of(r), normalization_of(r));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->what, "row 0 differs: target (1), oracle (2)");
}

}  // namespace
}  // namespace jbench::oracle
