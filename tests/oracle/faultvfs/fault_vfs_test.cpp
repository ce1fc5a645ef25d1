// The shim under real SQLite connections: counting, transient and persistent errors as a
// statement sees them, and power loss (a cut, or a SIGKILL) losing exactly what was not synced.
#include "jbench/oracle/fault_vfs.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include "sqlite_helpers.h"
#include "temp_dir.h"

namespace jbench::oracle {
namespace {

using test::Db;
using test::is_ioerr;

std::unique_ptr<FaultVfs> make_vfs() {
  auto vfs = FaultVfs::create();
  if (!vfs) ADD_FAILURE() << vfs.error().message;
  return std::move(vfs).value();
}

// A database with one table, made without the shim.
std::string make_db(const jbench::test::TempDir& dir, const std::string& journal_mode = "DELETE") {
  std::string path = dir.path() + "/db";
  Db db(path);
  EXPECT_EQ(db.exec("PRAGMA journal_mode=" + journal_mode), SQLITE_OK);
  EXPECT_EQ(db.exec("CREATE TABLE t(x TEXT)"), SQLITE_OK);
  return path;
}

long long rows_with(const std::string& path, const std::string& x) {
  Db db(path);
  EXPECT_EQ(db.text("PRAGMA integrity_check"), "ok");
  return db.integer("SELECT count(*) FROM t WHERE x = '" + x + "'");
}

std::vector<IoOp> trace_of_one_workload(const std::string& journal_mode) {
  jbench::test::TempDir dir;
  std::string path = make_db(dir, journal_mode);
  auto vfs = make_vfs();
  {
    Db db(path, vfs->name().c_str());
    EXPECT_EQ(db.exec("INSERT INTO t VALUES ('a'), ('b')"), SQLITE_OK);
    EXPECT_EQ(db.exec("BEGIN; UPDATE t SET x = 'c'; DELETE FROM t WHERE rowid = 1; COMMIT"),
              SQLITE_OK);
  }
  return vfs->trace();
}

TEST(FaultVfs, counts_the_same_io_points_in_two_fault_free_runs) {
  for (const char* mode : {"DELETE", "WAL"}) {
    std::vector<IoOp> first = trace_of_one_workload(mode);
    std::vector<IoOp> second = trace_of_one_workload(mode);
    EXPECT_EQ(first, second) << mode;
    for (IoOp op : {IoOp::read, IoOp::write, IoOp::sync, IoOp::lock}) {
      EXPECT_NE(std::count(first.begin(), first.end(), op), 0) << mode << " " << to_string(op);
    }
  }
}

TEST(FaultVfs, counts_agree_with_the_trace) {
  jbench::test::TempDir dir;
  std::string path = make_db(dir);
  auto vfs = make_vfs();
  {
    Db db(path, vfs->name().c_str());
    ASSERT_EQ(db.exec("INSERT INTO t VALUES ('a')"), SQLITE_OK);
  }
  std::vector<IoOp> trace = vfs->trace();
  IoCounts counts = vfs->counts();
  EXPECT_EQ(counts.total(), trace.size());
  for (IoOp op : kAllIoOps) {
    EXPECT_EQ(counts.of(op),
              static_cast<std::uint64_t>(std::count(trace.begin(), trace.end(), op)));
  }
}

TEST(FaultVfs, a_transient_write_fault_fails_the_statement_and_the_next_one_works) {
  jbench::test::TempDir dir;
  std::string path = make_db(dir);
  auto vfs = make_vfs();
  {
    Db db(path, vfs->name().c_str());
    ASSERT_EQ(db.exec("INSERT INTO t VALUES ('warm')"), SQLITE_OK);
    vfs->arm({FaultKind::transient_error, vfs->counts().of(IoOp::write) + 1, IoOp::write});
    EXPECT_EQ(db.exec("INSERT INTO t VALUES ('failed')"), SQLITE_IOERR_WRITE);
    EXPECT_TRUE(vfs->fault_fired());
    EXPECT_EQ(vfs->fired_op(), IoOp::write);
    EXPECT_EQ(db.exec("INSERT INTO t VALUES ('next')"), SQLITE_OK);
  }
  EXPECT_EQ(rows_with(path, "failed"), 0);
  EXPECT_EQ(rows_with(path, "next"), 1);
}

TEST(FaultVfs, a_transient_sync_fault_surfaces_as_an_fsync_error) {
  jbench::test::TempDir dir;
  std::string path = make_db(dir);
  auto vfs = make_vfs();
  Db db(path, vfs->name().c_str());
  vfs->arm({FaultKind::transient_error, 1, IoOp::sync});
  EXPECT_EQ(db.exec("INSERT INTO t VALUES ('failed')"), SQLITE_IOERR_FSYNC);
  EXPECT_EQ(db.exec("INSERT INTO t VALUES ('next')"), SQLITE_OK);
}

TEST(FaultVfs, a_persistent_write_fault_keeps_failing_until_disarmed) {
  jbench::test::TempDir dir;
  std::string path = make_db(dir);
  auto vfs = make_vfs();
  {
    Db db(path, vfs->name().c_str());
    vfs->arm({FaultKind::persistent_error, 1, IoOp::write});
    for (int i = 0; i < 3; ++i) {
      const std::uint64_t writes_before = vfs->counts().of(IoOp::write);
      EXPECT_TRUE(is_ioerr(db.exec("INSERT INTO t VALUES ('failed')"))) << i;
      EXPECT_GT(vfs->counts().of(IoOp::write), writes_before) << "a write was tried";
    }
    vfs->arm({FaultKind::transient_error, 1'000'000, IoOp::write});  // clears the persistence
    EXPECT_EQ(db.exec("INSERT INTO t VALUES ('after')"), SQLITE_OK);
  }
  EXPECT_EQ(rows_with(path, "failed"), 0);
  EXPECT_EQ(rows_with(path, "after"), 1);
}

TEST(FaultVfs, a_lock_fault_fails_the_statement_that_needs_the_lock) {
  jbench::test::TempDir dir;
  std::string path = make_db(dir);
  auto vfs = make_vfs();
  Db db(path, vfs->name().c_str());
  vfs->arm({FaultKind::transient_error, 1, IoOp::lock});
  EXPECT_EQ(db.exec("SELECT count(*) FROM t"), SQLITE_IOERR_LOCK);
  EXPECT_EQ(db.integer("SELECT count(*) FROM t"), 0);
}

TEST(FaultVfs, power_loss_keeps_a_synced_commit_and_drops_an_unsynced_one) {
  for (const char* mode : {"DELETE", "WAL"}) {
    jbench::test::TempDir dir;
    std::string path = make_db(dir, mode);
    auto vfs = make_vfs();
    {
      Db db(path, vfs->name().c_str());
      ASSERT_EQ(db.exec("PRAGMA synchronous=FULL"), SQLITE_OK);
      ASSERT_EQ(db.exec("INSERT INTO t VALUES ('synced')"), SQLITE_OK);
      ASSERT_EQ(db.exec("PRAGMA synchronous=OFF"), SQLITE_OK);
      ASSERT_EQ(db.exec("INSERT INTO t VALUES ('unsynced')"), SQLITE_OK);
      vfs->cut_power();
      EXPECT_TRUE(is_ioerr(db.exec("INSERT INTO t VALUES ('after')"))) << mode;
    }
    EXPECT_EQ(rows_with(path, "synced"), 1) << mode;
    EXPECT_EQ(rows_with(path, "unsynced"), 0) << mode;
    EXPECT_EQ(rows_with(path, "after"), 0) << mode;
  }
}

TEST(FaultVfs, without_power_loss_write_back_keeps_an_unsynced_commit) {
  jbench::test::TempDir dir;
  std::string path = make_db(dir);
  auto vfs = make_vfs();
  {
    Db db(path, vfs->name().c_str());
    ASSERT_EQ(db.exec("PRAGMA synchronous=OFF"), SQLITE_OK);
    ASSERT_EQ(db.exec("INSERT INTO t VALUES ('unsynced')"), SQLITE_OK);
  }
  EXPECT_EQ(rows_with(path, "unsynced"), 0) << "not on disk before the write-back";
  ASSERT_TRUE(vfs->write_back_unsynced().ok());
  EXPECT_EQ(rows_with(path, "unsynced"), 1);
}

// The unsynced data lives only in the process, so killing it is a power loss.
TEST(FaultVfs, sigkill_of_a_process_using_the_shim_loses_only_unsynced_commits) {
  jbench::test::TempDir dir;
  std::string path = make_db(dir);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto vfs = FaultVfs::create();
    if (!vfs) _exit(2);
    Db db(path, (*vfs)->name().c_str());
    if (db.exec("INSERT INTO t VALUES ('synced')") != SQLITE_OK) _exit(3);
    if (db.exec("PRAGMA synchronous=OFF") != SQLITE_OK) _exit(4);
    if (db.exec("INSERT INTO t VALUES ('unsynced')") != SQLITE_OK) _exit(5);
    raise(SIGKILL);
    _exit(6);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "child exited with " << WEXITSTATUS(status);
  EXPECT_EQ(WTERMSIG(status), SIGKILL);
  EXPECT_EQ(rows_with(path, "synced"), 1);
  EXPECT_EQ(rows_with(path, "unsynced"), 0);
}

}  // namespace
}  // namespace jbench::oracle
