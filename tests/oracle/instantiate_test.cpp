// A corpus file instantiated per seed: the names it creates are renamed the same way in every
// record and nothing else is touched; every checked-in file, under three seeds, still meets its
// expectations on real SQLite and agrees with SQLite without its optimizer; seeds differ.
#include "jbench/oracle/instantiate.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "jbench/oracle/runner.h"
#include "oracle_test_support.h"
#include "value_printer.h"

namespace jbench::oracle {
namespace {

using test_support::memory_db;

Corpus parsed(const std::string& text) {
  ParsedCorpus p = parse_corpus(text, "dir/x.test");
  if (!p.corpus) ADD_FAILURE() << p.error->message;
  return *p.corpus;
}

TEST(InstantiateCorpus, renames_what_the_file_creates_everywhere_and_nothing_else) {
  const Corpus c = parsed(
      "statement ok\nCREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT, CHECK (v <> 'x'))\n\n"
      "statement ok\nCREATE INDEX t_v ON t(v)\n\n"
      "statement ok\nINSERT INTO t VALUES (1, 't')\n\n"
      "query TT\nSELECT v, 'v' FROM \"t\" WHERE t.id = 1 -- t stays in a comment\n----\n't', "
      "'v'\n\n"
      "statement error\nSELECT * FROM missing\n");
  const Corpus i = instantiate_corpus(c, 7);
  ASSERT_EQ(i.records.size(), c.records.size());
  EXPECT_EQ(i.file, "dir/x.seed-7.test");
  EXPECT_EQ(i.records[0].where.file, i.file);
  const std::string& create = i.records[0].sql;
  EXPECT_EQ(create.find("CREATE TABLE t("), std::string::npos) << create;
  EXPECT_NE(create.find("CREATE TABLE t_"), std::string::npos) << create;
  EXPECT_NE(create.find("CHECK (v_"), std::string::npos) << create;  // a column, not a constraint
  EXPECT_NE(create.find("'x'"), std::string::npos);
  const std::string& query = i.records[3].sql;
  EXPECT_NE(query.find("'v'"), std::string::npos) << query;                      // a string stays
  EXPECT_NE(query.find("-- t stays in a comment"), std::string::npos) << query;  // so does this
  EXPECT_NE(query.find("FROM \"t_"), std::string::npos) << query;  // a quoted name is renamed
  EXPECT_EQ(i.records[4].sql, "SELECT * FROM missing");            // not created: kept
  EXPECT_EQ(i.records[3].expected, c.records[3].expected);
  // The same seed, the same names; another seed, others.
  EXPECT_EQ(instantiate_corpus(c, 7).records[3].sql, query);
  EXPECT_NE(instantiate_corpus(c, 8).records[3].sql, query);
  // Run on SQLite, the renamed file meets its expectation.
  SqliteTarget target = memory_db();
  SqliteTarget oracle = memory_db();
  const RunReport r = run_corpus(i, target, oracle);
  EXPECT_TRUE(r.clean()) << (r.clean() ? ""
                                       : describe(r.expectation_failures.empty()
                                                      ? r.divergences.front()
                                                      : r.expectation_failures.front()));
}

TEST(InstantiateCorpus, every_checked_in_file_holds_under_three_seeds) {
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(JBENCH_ORACLE_CORPUS_DIR)) {
    if (e.path().extension() != ".test") continue;
    ParsedCorpus p = read_corpus_file(e.path().string());
    ASSERT_TRUE(p.corpus) << e.path();
    ++files;
    for (std::uint64_t seed : {1, 2, 3}) {
      const Corpus i = instantiate_corpus(*p.corpus, seed);
      bool renamed = false;
      for (std::size_t k = 0; k < i.records.size(); ++k) {
        renamed = renamed || i.records[k].sql != p.corpus->records[k].sql;
      }
      EXPECT_TRUE(renamed) << e.path();
      SqliteTarget target = memory_db();
      auto off = SqliteTarget::open(":memory:", {}, true);
      ASSERT_TRUE(off);
      const RunReport r = run_corpus(i, target, off.value());
      for (const Finding& f : r.divergences) ADD_FAILURE() << describe(f);
      for (const Finding& f : r.expectation_failures) ADD_FAILURE() << describe(f);
      EXPECT_TRUE(r.target_failures.empty());
    }
  }
  EXPECT_GE(files, 5u);
}

}  // namespace
}  // namespace jbench::oracle
