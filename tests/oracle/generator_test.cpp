// The seeded generator over the workload's schema: deterministic, covering what it promises,
// and free of false positives over 100,000 statements — optimized SQLite against SQLite with its
// optimizer off, and the correct result cache against SQLite — while the wrong caches are caught
// by the generated stream too. The metamorphic checks (TLP, NoREC) over generated predicates
// agree on real SQLite and catch an engine that treats a NULL predicate as true.
#include "jbench/oracle/generator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "jbench/oracle/norec.h"
#include "jbench/oracle/runner.h"
#include "jbench/oracle/sqlite_target.h"
#include "jbench/oracle/tlp.h"
#include "support/subquery_cache_target.h"

namespace jbench::oracle {
namespace {

using testing::CachePolicy;
using testing::SubqueryCacheTarget;

SqliteTarget memory_db(bool optimizer_off = false) {
  auto db = SqliteTarget::open(":memory:", {}, optimizer_off);
  if (!db) ADD_FAILURE() << db.error().message;
  return std::move(db).value();
}

std::string all_sql(const Corpus& c) {
  std::string out;
  for (const Record& r : c.records) out += r.sql + to_sql_literal(r.params) + r.prepared + "\n";
  return out;
}

TEST(Generator, the_same_seed_gives_the_same_stream_and_another_seed_another) {
  Corpus a = generate_stream({.seed = 11, .statements = 2000});
  Corpus b = generate_stream({.seed = 11, .statements = 2000});
  Corpus c = generate_stream({.seed = 12, .statements = 2000});
  EXPECT_EQ(all_sql(a), all_sql(b));
  EXPECT_NE(all_sql(a), all_sql(c));
  EXPECT_EQ(a.file, "generated:seed=11");
  // Locations are unique: a finding and a reduction point at one record.
  std::set<std::uint32_t> lines;
  for (const Record& r : a.records) lines.insert(r.where.line);
  EXPECT_EQ(lines.size(), a.records.size());
}

TEST(Generator, covers_prepared_re_execution_writes_transactions_and_every_query_shape) {
  Corpus s = generate_stream({.seed = 3, .statements = 5000});
  std::size_t prepared = 0, writes = 0, savepoints = 0, rollbacks = 0, errors = 0;
  std::set<std::string> templates;
  for (const Record& r : s.records) {
    if (!r.prepared.empty()) {
      ++prepared;
      templates.insert(r.prepared);
    }
    writes +=
        r.sql.starts_with("INSERT") || r.sql.starts_with("UPDATE") || r.sql.starts_with("DELETE");
    savepoints += r.sql.starts_with("SAVEPOINT");
    rollbacks += r.sql.starts_with("ROLLBACK");
    errors += r.kind == RecordKind::statement_error;
  }
  EXPECT_GT(prepared, 1000u);
  EXPECT_GT(writes, 500u);
  EXPECT_GT(savepoints, 10u);
  EXPECT_GT(rollbacks, 20u);
  EXPECT_GT(errors, 50u);
  // Every prepared template, and so every query shape but the error, was drawn.
  EXPECT_GE(templates.size(), 26u);
}

// The run's coverage table counts every record by its shape: the generator's templates by name,
// the rest by their first keyword; the shapes beyond the workload's statements are among them.
TEST(Generator, the_run_counts_every_shape_it_played) {
  Corpus s = generate_stream({.seed = 5, .statements = 4000});
  SqliteTarget target = memory_db();
  SqliteTarget oracle = memory_db(true);
  RunReport r = run_corpus(s, target, oracle);
  for (const Finding& f : r.divergences) ADD_FAILURE() << describe(f);
  std::size_t counted = 0;
  for (const auto& [shape, n] : r.coverage) counted += n;
  EXPECT_EQ(counted, r.records_played);
  for (const char* shape :
       {"distinct_groups", "having", "like_digits", "case_sum", "inner_join", "row_number", "page",
        "upsert_returning", "top_vals", "notes_ascending", "notes_descending", "note_counts",
        "note_is", "INSERT", "SAVEPOINT", "SELECT"}) {
    EXPECT_GT(r.coverage[shape], 0u) << shape;
  }
  EXPECT_EQ(to_json(r)["coverage"]["page"], r.coverage["page"]);
}

// A third of the queries are composed from parts: every composed shape is drawn, nearly every
// text is its own (literals and aliases come from the seed), and the answers the run compared
// hold every storage class, which its record counts.
TEST(Generator, composed_queries_are_drawn_in_every_shape_with_texts_of_their_own) {
  Corpus s = generate_stream({.seed = 13, .statements = 4000});
  std::set<std::string> composed_texts;
  std::size_t composed = 0;
  std::size_t queries = 0;
  for (const Record& r : s.records) {
    queries += r.kind == RecordKind::query;
    if (!r.shape.starts_with("composed_")) continue;
    ++composed;
    composed_texts.insert(r.sql);
    EXPECT_TRUE(r.params.empty()) << r.sql;  // literals in the text
    EXPECT_TRUE(r.prepared.empty()) << r.sql;
  }
  EXPECT_GT(composed * 4, queries);  // about a third
  EXPECT_GT(composed_texts.size() * 100, composed * 99);

  SqliteTarget target = memory_db();
  SqliteTarget oracle = memory_db(true);
  RunReport r = run_corpus(s, target, oracle);
  for (const Finding& f : r.divergences) ADD_FAILURE() << describe(f);
  for (const char* shape : {"composed_select", "composed_join", "composed_group",
                            "composed_compound", "composed_window", "composed_cte"}) {
    EXPECT_GT(r.coverage[shape], 100u) << shape;
  }
  for (const char* value_class : {"null", "integer", "real", "text", "blob"}) {
    EXPECT_GT(r.value_classes[value_class], 100u) << value_class;
  }
  EXPECT_EQ(to_json(r)["value_classes"]["blob"], r.value_classes["blob"]);
}

// Two streams of other seeds share no composed text: what an engine could learn from one does
// not name the statements of the next.
TEST(Generator, composed_queries_of_two_seeds_do_not_share_their_texts) {
  std::set<std::string> first;
  for (const Record& r : generate_stream({.seed = 21, .statements = 2000}).records) {
    if (r.shape.starts_with("composed_")) first.insert(r.sql);
  }
  std::size_t shared = 0;
  std::size_t composed = 0;
  for (const Record& r : generate_stream({.seed = 22, .statements = 2000}).records) {
    if (!r.shape.starts_with("composed_")) continue;
    ++composed;
    shared += first.contains(r.sql);
  }
  EXPECT_GT(composed, 100u);
  EXPECT_EQ(shared, 0u);
}

// 100,000 generated statements, compared: no finding between two right engines.
void expect_no_findings(Target& target, Target& oracle, std::uint64_t seed) {
  Corpus s = generate_stream({.seed = seed, .statements = 100'000});
  RunReport r = run_corpus(s, target, oracle);
  EXPECT_GE(r.statements_compared, 100'000u);
  for (const Finding& f : r.divergences) ADD_FAILURE() << describe(f);
  EXPECT_EQ(r.divergences_left_off, 0u);
  EXPECT_TRUE(r.expectation_failures.empty());  // a generated stream has no expectations
  EXPECT_TRUE(r.target_failures.empty());
}

TEST(Generator, optimized_sqlite_and_sqlite_without_its_optimizer_agree_on_100k_statements) {
  SqliteTarget target = memory_db();
  SqliteTarget oracle = memory_db(true);
  expect_no_findings(target, oracle, 101);
}

TEST(Generator, the_correct_cache_agrees_with_sqlite_on_100k_statements) {
  SubqueryCacheTarget target(memory_db(), CachePolicy::correct());
  SqliteTarget oracle = memory_db();
  expect_no_findings(target, oracle, 202);
  EXPECT_GT(target.fills(), 10'000u);  // it did cache
}

class WrongCacheOnStream : public ::testing::TestWithParam<std::string> {};

TEST_P(WrongCacheOnStream, is_caught_within_a_few_thousand_statements) {
  SubqueryCacheTarget target(memory_db(), *testing::cache_policy_named(GetParam()));
  SqliteTarget oracle = memory_db();
  RunOptions stop;
  stop.stop_at_first = true;
  RunReport r = run_corpus(generate_stream({.seed = 5, .statements = 5000}), target, oracle, stop);
  ASSERT_FALSE(r.divergences.empty()) << GetParam();
  EXPECT_EQ(r.divergences[0].where.file, "generated:seed=5");
}

INSTANTIATE_TEST_SUITE_P(Oracle, WrongCacheOnStream,
                         ::testing::Values("ignores-parameters", "survives-reset",
                                           "across-statements", "multi-row-last"),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           std::string n = p.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

// Sorts NULLs last whatever the direction, as some engines do by default: wrong for SQLite's
// dialect, where NULL is the smallest value (first ascending, last descending).
class NullsLastTarget : public Target {
 public:
  explicit NullsLastTarget(SqliteTarget real) : real_(std::move(real)) {}
  ResultSet run(std::string_view sql, const std::vector<Value>& params) override {
    ResultSet r = real_.run(sql, params);
    if (sql.find("ORDER BY note") != std::string_view::npos) {
      std::stable_partition(r.rows.begin(), r.rows.end(), [](const Row& row) {
        return row.size() < 2 || row[1].kind != ValueKind::null;
      });
    }
    return r;
  }
  ResultSet run_prepared(const std::string&, std::string_view sql,
                         const std::vector<Value>& params) override {
    return run(sql, params);
  }
  std::string name() const override { return "nulls-last"; }

 private:
  SqliteTarget real_;
};

TEST(Generator, an_engine_that_sorts_nulls_last_is_caught_by_an_ascending_order_of_notes) {
  const Corpus stream = generate_stream({.seed = 5, .statements = 5000});
  NullsLastTarget target(memory_db());
  SqliteTarget oracle = memory_db();
  RunOptions stop;
  stop.stop_at_first = true;
  RunReport r = run_corpus(stream, target, oracle, stop);
  ASSERT_FALSE(r.divergences.empty());
  const std::uint32_t line = r.divergences[0].where.line;
  ASSERT_GE(line, 1u);
  const Record& found = stream.records.at(line - 1);
  EXPECT_EQ(found.shape, "notes_ascending") << found.sql;
  EXPECT_NE(r.divergences[0].sql.find("ORDER BY note, id"), std::string::npos);
}

// Treats a predicate that is NULL as true in WHERE clauses: SQL's three-valued logic broken.
class NullIsTrueTarget : public Target {
 public:
  explicit NullIsTrueTarget(SqliteTarget real) : real_(std::move(real)) {}
  ResultSet run(std::string_view sql, const std::vector<Value>& params) override {
    std::string s(sql);
    std::size_t where = s.find(" WHERE (");
    // Only the top-level filter of a NoREC count query: "... WHERE (p)" at the end.
    if (s.starts_with("SELECT count(*)") && where != std::string::npos) {
      std::string p = s.substr(where + 7);
      s = s.substr(0, where) + " WHERE " + p + " IS NOT FALSE";
    }
    return real_.run(s, params);
  }
  ResultSet run_prepared(const std::string&, std::string_view sql,
                         const std::vector<Value>& params) override {
    return run(sql, params);
  }
  std::string name() const override { return "null-is-true"; }

 private:
  SqliteTarget real_;
};

Corpus populated() {
  Corpus c = generate_stream({.seed = 9, .statements = 300});
  return c;
}

TEST(Metamorphic, tlp_and_norec_agree_on_real_sqlite_over_generated_predicates) {
  SqliteTarget db = memory_db();
  SqliteTarget unused = memory_db();
  run_corpus(populated(), db, unused);
  std::size_t checked = 0;
  for (const TlpCase& c : generate_predicate_cases(4, 300)) {
    TlpOutcome t = check_tlp(db, c);
    EXPECT_EQ(t.verdict, TlpVerdict::same) << describe(t);
    NorecOutcome n = check_norec(db, norec_case_of(c));
    EXPECT_EQ(n.verdict, NorecVerdict::same) << describe(n);
    checked += 2;
  }
  EXPECT_EQ(checked, 600u);
}

TEST(Metamorphic, norec_catches_an_engine_that_treats_a_null_predicate_as_true) {
  NullIsTrueTarget broken(memory_db());
  SqliteTarget unused = memory_db();
  run_corpus(populated(), broken, unused);
  std::size_t caught = 0;
  for (const TlpCase& c : generate_predicate_cases(4, 300)) {
    NorecOutcome n = check_norec(broken, norec_case_of(c));
    EXPECT_NE(n.verdict, NorecVerdict::error) << describe(n);
    caught += n.verdict == NorecVerdict::divergence;
  }
  EXPECT_GT(caught, 10u);  // every case whose predicate is NULL on some row of a LEFT JOIN
}

}  // namespace
}  // namespace jbench::oracle
