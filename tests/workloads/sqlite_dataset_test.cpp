// build-dataset: deterministic content from the seed, an honest report, and no overwriting.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "worker_fixture.h"

namespace jbench::test {
namespace {

// Every row of both tables, as text, read by the test's own connection.
std::vector<std::string> dump(const std::string& db) {
  std::vector<std::string> rows;
  sqlite3* handle = nullptr;
  EXPECT_EQ(sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
  for (const char* sql : {"SELECT grp || ':' || weight FROM groups ORDER BY grp",
                          "SELECT id || ':' || grp || ':' || val || ':' || hex(payload) FROM items "
                          "ORDER BY id"}) {
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(handle, sql, -1, &stmt, nullptr), SQLITE_OK);
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      rows.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
    }
    sqlite3_finalize(stmt);
  }
  sqlite3_close_v2(handle);
  return rows;
}

TEST(SqliteDataset, SameSeedGivesIdenticalContentAndAnotherSeedDoesNot) {
  TempDir dir;
  const json a = build_dataset(dir.path() + "/a.db", 1500, 40, 7);
  const json b = build_dataset(dir.path() + "/b.db", 1500, 40, 7);
  const json c = build_dataset(dir.path() + "/c.db", 1500, 40, 8);
  const auto rows_a = dump(dir.path() + "/a.db");
  ASSERT_EQ(rows_a.size(), 1500u + 24u);  // items plus ceil(1500 / 64) groups
  EXPECT_EQ(rows_a, dump(dir.path() + "/b.db"));
  EXPECT_NE(rows_a, dump(dir.path() + "/c.db"));
  EXPECT_EQ(a["content_sha256"], b["content_sha256"]);
  EXPECT_NE(a["content_sha256"], c["content_sha256"]);
}

TEST(SqliteDataset, ReportDescribesTheFileThatWasBuilt) {
  TempDir dir;
  const std::string db = dir.path() + "/d.db";
  const json r = build_dataset(db, 1000, 100, 1);
  EXPECT_EQ(r["rows"], 1000);
  EXPECT_EQ(r["row_bytes"], 100);
  EXPECT_EQ(r["groups"], 16);
  EXPECT_EQ(r["seed"], "1");
  EXPECT_EQ(r["page_size"], 4096);
  struct stat st {};
  ASSERT_EQ(stat(db.c_str(), &st), 0);
  EXPECT_EQ(r["db_bytes"], st.st_size);
  EXPECT_EQ(r["db_bytes"].get<std::uint64_t>(),
            r["page_size"].get<std::uint64_t>() * r["page_count"].get<std::uint64_t>());
  EXPECT_GT(ns(r["build_ns"]), 0u);
  EXPECT_EQ(count_items(db), 1000);
  // WAL is recorded in the file; nothing but the database itself is left behind.
  EXPECT_NE(stat((db + "-wal").c_str(), &st), 0);
  EXPECT_NE(stat((db + ".building").c_str(), &st), 0);
  sqlite3* handle = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &handle), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(handle, "PRAGMA journal_mode", -1, &stmt, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)), "wal");
  sqlite3_finalize(stmt);
  sqlite3_close(handle);
}

TEST(SqliteDataset, RefusesToOverwriteAnExistingDatabase) {
  TempDir dir;
  const std::string db = dir.path() + "/d.db";
  const json first = build_dataset(db, 200, 8, 1);
  const auto again =
      run_build_dataset({"--db", db, "--rows", "300", "--row-bytes", "8", "--seed", "2"});
  EXPECT_EQ(again.status.code, 2);
  ASSERT_EQ(again.lines.size(), 1u);
  EXPECT_EQ(again.lines[0]["type"], "error");
  EXPECT_EQ(count_items(db), 200);
}

TEST(SqliteDataset, RejectsBadArgumentsWithExitCodeTwo) {
  TempDir dir;
  const std::vector<std::vector<std::string>> cases = {
      {"--db", dir.path() + "/x.db", "--rows", "10", "--row-bytes", "8"},                // no seed
      {"--db", dir.path() + "/x.db", "--rows", "0", "--row-bytes", "8", "--seed", "1"},  // no rows
      {"--db", dir.path() + "/x.db", "--rows", "-5", "--row-bytes", "8", "--seed", "1"},
      {"--db", dir.path() + "/x.db", "--rows", "10", "--row-bytes", "8", "--seed", "1", "--force",
       "1"},
  };
  for (const auto& args : cases) {
    const auto run = run_build_dataset(args);
    EXPECT_TRUE(run.status.exited);
    EXPECT_EQ(run.status.code, 2) << ::testing::PrintToString(args);
    ASSERT_EQ(run.lines.size(), 1u);
    EXPECT_EQ(run.lines[0]["type"], "error");
    EXPECT_EQ(count_items(dir.path() + "/x.db"), -1) << "nothing may be created";
  }
}

}  // namespace
}  // namespace jbench::test
