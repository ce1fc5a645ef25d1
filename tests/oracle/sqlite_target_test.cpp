// The in-process SQLite adapter on real :memory: databases.
#include "jbench/oracle/sqlite_target.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include "oracle_test_support.h"
#include "value_printer.h"

namespace jbench::oracle {
namespace {

using V = Value;

using test_support::memory_db;

TEST(SqliteTarget, returns_columns_and_typed_rows) {
  SqliteTarget db = memory_db();
  ResultSet r = db.run("SELECT 1 AS i, 2.5 AS f, 'x' AS t, x'00ff' AS b, NULL AS n", {});
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(r.columns, (std::vector<std::string>{"i", "f", "t", "b", "n"}));
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0], (Row{V::integer(1), V::real(2.5), V::text("x"),
                            V::blob(std::string("\0\xff", 2)), V::null()}));
}

TEST(SqliteTarget, binds_every_kind_of_parameter) {
  SqliteTarget db = memory_db();
  std::vector<Value> params = {V::integer(41), V::real(0.5), V::text("it's"),
                               V::blob(std::string("\0a", 2)), V::null()};
  ResultSet r = db.run("SELECT ?1 + 1, ?2 * 2, ?3, ?4, ?5 IS NULL, typeof(?4)", params);
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(r.rows[0], (Row{V::integer(42), V::real(1.0), V::text("it's"),
                            V::blob(std::string("\0a", 2)), V::integer(1), V::text("blob")}));
}

TEST(SqliteTarget, keeps_state_between_runs_and_steps_all_rows) {
  SqliteTarget db = memory_db();
  ASSERT_TRUE(db.run("CREATE TABLE t(x)", {}).ok());
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(db.run("INSERT INTO t VALUES (?1)", {V::integer(i)}).ok());
  ResultSet r = db.run("SELECT x FROM t ORDER BY x", {});
  ASSERT_EQ(r.rows.size(), 3u);
  EXPECT_EQ(r.rows[2][0], V::integer(2));
}

TEST(SqliteTarget, a_bad_statement_is_an_error_result) {
  SqliteTarget db = memory_db();
  ResultSet r = db.run("SELECT * FROM missing", {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->code, SQLITE_ERROR);
  EXPECT_NE(r.error->message.find("no such table"), std::string::npos) << r.error->message;
}

TEST(SqliteTarget, an_error_while_stepping_has_the_extended_code) {
  SqliteTarget db = memory_db();
  ASSERT_TRUE(db.run("CREATE TABLE t(x PRIMARY KEY)", {}).ok());
  ASSERT_TRUE(db.run("INSERT INTO t VALUES (1)", {}).ok());
  ResultSet r = db.run("INSERT INTO t VALUES (1)", {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->code, SQLITE_CONSTRAINT_PRIMARYKEY);
}

TEST(SqliteTarget, a_wrong_parameter_count_is_an_error_result) {
  SqliteTarget db = memory_db();
  ResultSet few = db.run("SELECT ?1, ?2", {V::integer(1)});
  ASSERT_FALSE(few.ok());
  EXPECT_EQ(few.error->code, SQLITE_RANGE);
  ResultSet many = db.run("SELECT 1", {V::integer(1)});
  ASSERT_FALSE(many.ok());
  EXPECT_EQ(many.error->code, SQLITE_RANGE);
}

TEST(SqliteTarget, refuses_a_second_statement_but_accepts_trailing_comments) {
  SqliteTarget db = memory_db();
  ResultSet two = db.run("SELECT 1; SELECT 2", {});
  ASSERT_FALSE(two.ok());
  EXPECT_EQ(two.error->code, SQLITE_MISUSE);
  EXPECT_TRUE(db.run("SELECT 1; -- done\n /* really */ ;", {}).ok());
}

TEST(SqliteTarget, runs_its_pragmas_and_names_a_failing_one) {
  SqliteTarget db = memory_db({"foreign_keys=ON"});
  ResultSet r = db.run("PRAGMA foreign_keys", {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.rows[0][0], V::integer(1));
  auto bad = SqliteTarget::open(":memory:", {"no_such_pragma("});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("PRAGMA no_such_pragma("), std::string::npos)
      << bad.error().message;
}

TEST(SqliteTarget, an_unopenable_path_is_an_error) {
  auto db = SqliteTarget::open("/nonexistent-dir/x.db", {});
  ASSERT_FALSE(db);
  EXPECT_NE(db.error().message.find("/nonexistent-dir/x.db"), std::string::npos);
}

}  // namespace
}  // namespace jbench::oracle
