// The subquery cache (subquery_cache.h) on real SQLite databases, without a worker process: the
// hoisted statement with the kept value answers what count_above_mean_weight answers (a workload
// dataset, an empty `groups` whose avg is NULL, values of other storage classes, another
// affinity of `val`); the value is forgotten after the connection's own write, at ROLLBACK TO
// and at the transaction's end; another connection's commit stays invisible inside the
// transaction (the WAL snapshot the rule stands on); and `connection` keeps a stale value.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "jbench/sqlite_workload/config.h"
#include "jbench/sqlite_workload/dataset.h"
#include "jbench/sqlite_workload/queries.h"
#include "jbench/sqlite_workload/sqlite_db.h"
#include "jbench/sqlite_workload/subquery_cache.h"
#include "worker_fixture.h"

namespace jbench::sqlite_workload {
namespace {

using jbench::test::configure_message;
using jbench::test::TempDir;
using jbench::test::WorkerOptions;
using nlohmann::json;

const std::string kOriginal(query_info(Query::count_above_mean_weight).sql);

// A value for ?1 in any storage class.
struct Param {
  enum class Kind { integer, real, text, null } kind = Kind::integer;
  std::int64_t i = 0;
  double r = 0;
  std::string t;

  static Param integer(std::int64_t v) { return {Kind::integer, v, 0, {}}; }
  static Param real(double v) { return {Kind::real, 0, v, {}}; }
  static Param text(std::string v) { return {Kind::text, 0, 0, std::move(v)}; }
  static Param null() { return {Kind::null, 0, 0, {}}; }

  void bind(sqlite3_stmt* stmt, int index) const {
    switch (kind) {
      case Kind::integer:
        sqlite3_bind_int64(stmt, index, i);
        break;
      case Kind::real:
        sqlite3_bind_double(stmt, index, r);
        break;
      case Kind::text:
        sqlite3_bind_text(stmt, index, t.c_str(), -1, SQLITE_TRANSIENT);
        break;
      case Kind::null:
        sqlite3_bind_null(stmt, index);
        break;
    }
  }
};

Database open_db(const std::string& path) {
  Database db;
  std::string error;
  const int rc = Database::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, db, error);
  if (rc != SQLITE_OK) throw std::runtime_error("open " + path + ": " + error);
  return db;
}

// Runs one statement to its end, and shows it to `cache` as the workload's connection would.
void run(Database& db, SubqueryCache* cache, const std::string& sql) {
  Statement stmt;
  if (db.prepare(sql, stmt) != SQLITE_OK) throw std::runtime_error(sql + ": " + db.errmsg());
  int rc;
  while ((rc = sqlite3_step(stmt.get())) == SQLITE_ROW) {
  }
  sqlite3_reset(stmt.get());
  if (cache != nullptr) cache->after_statement(stmt.get());
  if (rc != SQLITE_DONE) throw std::runtime_error(sql + ": " + db.errmsg());
}

// count_above_mean_weight as written.
std::int64_t original_count(Database& db, const Param& grp) {
  Statement stmt;
  if (db.prepare(kOriginal, stmt) != SQLITE_OK) throw std::runtime_error(db.errmsg());
  grp.bind(stmt.get(), 1);
  if (sqlite3_step(stmt.get()) != SQLITE_ROW) throw std::runtime_error(db.errmsg());
  return sqlite3_column_int64(stmt.get(), 0);
}

struct Cached {
  std::int64_t count = -1;
  SubqueryCache::Lookup lookup{};
};

// count_above_mean_weight through the cache, as transaction.cpp runs it.
Cached cached_count(SubqueryCache& cache, const Param& grp) {
  sqlite3_stmt* hoisted = nullptr;
  Cached out;
  std::uint64_t fill_steps = 0;
  if (cache.bind_execution(hoisted, out.lookup, fill_steps) != SQLITE_OK) {
    throw std::runtime_error("bind_execution failed");
  }
  EXPECT_EQ(fill_steps > 0, out.lookup == SubqueryCache::Lookup::fill);
  grp.bind(hoisted, 1);
  if (sqlite3_step(hoisted) != SQLITE_ROW) throw std::runtime_error("hoisted step failed");
  out.count = sqlite3_column_int64(hoisted, 0);
  EXPECT_EQ(sqlite3_step(hoisted), SQLITE_DONE);
  sqlite3_reset(hoisted);
  cache.after_statement(hoisted);
  return out;
}

constexpr const char* kSchema =
    "CREATE TABLE groups(grp INTEGER PRIMARY KEY, weight INTEGER NOT NULL);"
    "CREATE TABLE items(id INTEGER PRIMARY KEY, grp INTEGER NOT NULL, val INTEGER NOT NULL, "
    "payload BLOB NOT NULL);"
    "CREATE INDEX items_grp ON items(grp);";

// Parameters of every storage class, around and inside the groups' range.
std::vector<Param> parameters(std::int64_t groups) {
  std::vector<Param> out;
  for (std::int64_t g = -1; g <= groups; ++g) out.push_back(Param::integer(g));
  out.push_back(Param::null());
  out.push_back(Param::real(1.0));
  out.push_back(Param::real(1.5));
  out.push_back(Param::text("2"));
  out.push_back(Param::text("two"));
  return out;
}

// Every parameter, through the cache inside one explicit transaction and as written: the same
// count each time, with the kept value reused after the first.
void expect_equivalent(Database& db, std::int64_t groups) {
  SubqueryCache cache(db.get(), SubqueryCachePolicy::transaction);
  run(db, &cache, "BEGIN");
  ASSERT_TRUE(cache.applies());
  for (const Param& p : parameters(groups)) {
    const Cached c = cached_count(cache, p);
    EXPECT_EQ(c.count, original_count(db, p)) << "kind " << static_cast<int>(p.kind) << " i " << p.i
                                              << " r " << p.r << " t '" << p.t << "'";
  }
  run(db, &cache, "COMMIT");
  EXPECT_EQ(cache.fills(), 1u);
  EXPECT_EQ(cache.hits(), parameters(groups).size() - 1);
}

TEST(SqliteSubqueryCache, HoistedStatementEqualsTheOriginalOnAWorkloadDataset) {
  TempDir dir;
  DatasetSpec spec;
  spec.db_path = dir.path() + "/d.db";
  spec.rows = 3000;
  spec.row_bytes = 8;
  spec.seed = 5;
  const DatasetBuild built = build_dataset(spec);
  ASSERT_TRUE(built.report) << built.error;
  Database db = open_db(spec.db_path);
  const auto groups = static_cast<std::int64_t>(built.report->shape.groups);
  // The counts must not all be equal, or the comparison would show little.
  ASSERT_NE(original_count(db, Param::integer(0)), original_count(db, Param::integer(-1)));
  expect_equivalent(db, groups);
}

TEST(SqliteSubqueryCache, HoistedStatementEqualsTheOriginalOnAnEmptyGroupsTable) {
  Database db = open_db(":memory:");
  ASSERT_EQ(db.exec(kSchema), SQLITE_OK);
  ASSERT_EQ(db.exec("INSERT INTO items VALUES (1, 0, 5, x''), (2, 0, -5, x''), (3, 1, 0, x'')"),
            SQLITE_OK);
  // avg() over no row is NULL, and `val > NULL` counts nothing.
  EXPECT_EQ(db.query_text("SELECT typeof((SELECT avg(weight) FROM groups))"), "null");
  EXPECT_EQ(original_count(db, Param::integer(0)), 0);
  expect_equivalent(db, 2);
}

TEST(SqliteSubqueryCache, HoistedStatementEqualsTheOriginalForValuesOfOtherStorageClasses) {
  Database db = open_db(":memory:");
  ASSERT_EQ(db.exec(kSchema), SQLITE_OK);
  // Columns without STRICT keep what does not convert: a REAL avg with a fraction, a REAL and a
  // TEXT `val` under INTEGER affinity, and a weight that is text.
  ASSERT_EQ(db.exec("INSERT INTO groups VALUES (0, 10), (1, 11), (2, '7 apples')"), SQLITE_OK);
  ASSERT_EQ(db.exec("INSERT INTO items VALUES (1, 0, 7, x''), (2, 0, 7.0, x''), (3, 0, 7.5, x''),"
                    "(4, 1, '8', x''), (5, 1, 'eight', x''), (6, 1, 9007199254740993, x''),"
                    "(7, 2, 6.999999999, x'')"),
            SQLITE_OK);
  EXPECT_EQ(db.query_text("SELECT typeof((SELECT avg(weight) FROM groups))"), "real");
  expect_equivalent(db, 3);
}

TEST(SqliteSubqueryCache, HoistedStatementEqualsTheOriginalUnderTextAffinity) {
  Database db = open_db(":memory:");
  // Another affinity for `val`: both forms apply it to the subquery's value alike.
  ASSERT_EQ(db.exec("CREATE TABLE groups(grp INTEGER PRIMARY KEY, weight);"
                    "CREATE TABLE items(id INTEGER PRIMARY KEY, grp, val TEXT, payload BLOB);"
                    "INSERT INTO groups VALUES (0, 1), (1, 2);"
                    "INSERT INTO items VALUES (1, 0, '1.4', x''), (2, 0, '1.6', x''),"
                    "(3, 0, '10', x''), (4, 1, 'b', x''), (5, 1, NULL, x'')"),
            SQLITE_OK);
  expect_equivalent(db, 2);
}

// The value kept after a fill, and the count of group 0, inside a transaction on `db`.
class CacheInTransaction : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(db_.exec(kSchema), SQLITE_OK);
    // avg(weight) 20: group 0 counts 25 and 35.
    ASSERT_EQ(db_.exec("INSERT INTO groups VALUES (0, 10), (1, 20), (2, 30);"
                       "INSERT INTO items VALUES (1, 0, 5, x''), (2, 0, 15, x''), "
                       "(3, 0, 25, x''), (4, 0, 35, x'')"),
              SQLITE_OK);
  }

  Database db_ = open_db(":memory:");
};

TEST_F(CacheInTransaction, OwnWriteInsideTheTransactionForgetsTheValue) {
  SubqueryCache cache(db_.get(), SubqueryCachePolicy::transaction);
  run(db_, &cache, "BEGIN");
  EXPECT_EQ(cached_count(cache, Param::integer(0)).count, 2);
  const Cached again = cached_count(cache, Param::integer(0));
  EXPECT_EQ(again.lookup, SubqueryCache::Lookup::hit);
  // A read-only statement keeps it.
  run(db_, &cache, "SELECT count(*) FROM items");
  EXPECT_TRUE(cache.holds_value());
  // avg(weight) 30: only 35 counts.
  run(db_, &cache, "UPDATE groups SET weight = 40 WHERE grp = 0");
  EXPECT_FALSE(cache.holds_value());
  const Cached after = cached_count(cache, Param::integer(0));
  EXPECT_EQ(after.lookup, SubqueryCache::Lookup::fill);
  EXPECT_EQ(after.count, 1);
  EXPECT_EQ(after.count, original_count(db_, Param::integer(0)));
  run(db_, &cache, "COMMIT");
}

TEST_F(CacheInTransaction, TheTransactionsEndForgetsTheValue) {
  SubqueryCache cache(db_.get(), SubqueryCachePolicy::transaction);
  for (const char* end : {"COMMIT", "ROLLBACK"}) {
    run(db_, &cache, "BEGIN");
    cached_count(cache, Param::integer(0));
    ASSERT_TRUE(cache.holds_value());
    run(db_, &cache, end);
    EXPECT_FALSE(cache.holds_value()) << end;
  }
  // Outside an explicit transaction the cache does not apply at all.
  EXPECT_FALSE(cache.applies());
  // A rolled-back write: the value computed after it must not survive the ROLLBACK.
  run(db_, &cache, "BEGIN");
  run(db_, &cache, "UPDATE groups SET weight = 100 WHERE grp = 1");
  EXPECT_EQ(cached_count(cache, Param::integer(0)).count, 0);  // avg 46.67
  run(db_, &cache, "ROLLBACK");
  run(db_, &cache, "BEGIN");
  EXPECT_EQ(cached_count(cache, Param::integer(0)).count, 2);
  run(db_, &cache, "COMMIT");
}

TEST_F(CacheInTransaction, RollbackToASavepointForgetsTheValue) {
  SubqueryCache cache(db_.get(), SubqueryCachePolicy::transaction);
  run(db_, &cache, "BEGIN");
  run(db_, &cache, "SAVEPOINT s");
  run(db_, &cache, "UPDATE groups SET weight = 100 WHERE grp = 1");
  EXPECT_EQ(cached_count(cache, Param::integer(0)).count, 0);
  // Read-only by sqlite3_stmt_readonly, yet it undoes the write while the transaction goes on.
  run(db_, &cache, " /* undo */ rollback to s");
  EXPECT_FALSE(cache.holds_value());
  EXPECT_EQ(cached_count(cache, Param::integer(0)).count, 2);
  run(db_, &cache, "RELEASE s");
  EXPECT_TRUE(cache.holds_value());  // RELEASE inside the transaction changes nothing seen
  run(db_, &cache, "COMMIT");
}

TEST_F(CacheInTransaction, ConnectionPolicyKeepsAStaleValue) {
  SubqueryCache cache(db_.get(), SubqueryCachePolicy::connection);
  EXPECT_TRUE(cache.applies());  // in autocommit too
  EXPECT_EQ(cached_count(cache, Param::integer(0)).count, 2);
  run(db_, &cache, "UPDATE groups SET weight = 40 WHERE grp = 0");
  const Cached stale = cached_count(cache, Param::integer(0));
  EXPECT_EQ(stale.lookup, SubqueryCache::Lookup::hit);
  EXPECT_EQ(original_count(db_, Param::integer(0)), 1);
  EXPECT_EQ(stale.count, 2);  // the answer from before the write: wrong
}

TEST(SqliteSubqueryCache, AnotherConnectionsCommitStaysInvisibleInsideTheTransaction) {
  TempDir dir;
  DatasetSpec spec;
  spec.db_path = dir.path() + "/d.db";
  spec.rows = 500;
  spec.row_bytes = 0;
  spec.seed = 9;
  ASSERT_TRUE(build_dataset(spec).report);
  Database reader = open_db(spec.db_path);
  Database writer = open_db(spec.db_path);
  ASSERT_EQ(reader.query_text("PRAGMA journal_mode"), "wal");
  SubqueryCache cache(reader.get(), SubqueryCachePolicy::transaction);
  const Param grp = Param::integer(3);

  run(reader, &cache, "BEGIN");
  const std::int64_t before = cached_count(cache, grp).count;
  // Every weight far above every val (val < 1000): nothing counts any more once it is seen.
  run(writer, nullptr, "UPDATE groups SET weight = 100000");
  const Cached inside = cached_count(cache, grp);
  EXPECT_EQ(inside.lookup, SubqueryCache::Lookup::hit);
  EXPECT_EQ(inside.count, before);
  EXPECT_EQ(original_count(reader, grp), before);  // SQLite's own snapshot agrees
  run(reader, &cache, "COMMIT");

  ASSERT_GT(before, 0);
  run(reader, &cache, "BEGIN");
  const Cached next = cached_count(cache, grp);
  EXPECT_EQ(next.lookup, SubqueryCache::Lookup::fill);
  EXPECT_EQ(next.count, 0);
  run(reader, &cache, "COMMIT");
}

TEST(SqliteSubqueryCache, ConfigureAcceptsEachPolicyAndRefusesAnyOther) {
  WorkerOptions o;
  json m = configure_message("/x.db", o);
  EXPECT_EQ(parse_configure(m).config->params.subquery_cache, SubqueryCachePolicy::off);
  for (const char* name : {"off", "transaction", "connection"}) {
    m["params"]["subquery_cache"] = name;
    const auto parsed = parse_configure(m);
    ASSERT_TRUE(parsed.config) << name;
    EXPECT_EQ(to_string(parsed.config->params.subquery_cache), name);
  }
  for (const json& bad : {json("statement"), json(true), json(1)}) {
    m["params"]["subquery_cache"] = bad;
    const auto parsed = parse_configure(m);
    EXPECT_FALSE(parsed.config);
    ASSERT_EQ(parsed.errors.size(), 1u);
    EXPECT_TRUE(parsed.errors[0].starts_with("params.subquery_cache: ")) << parsed.errors[0];
  }
}

}  // namespace
}  // namespace jbench::sqlite_workload
