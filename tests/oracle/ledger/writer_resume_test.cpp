// One jbench-ledger-worker writer at a time, on a database and ledger prepared to look like
// what a kill leaves, so the resume rules are checked deterministically: the new incarnation
// must neither redo a committed-but-unledgered transaction nor be confused by a torn line.
#include <gtest/gtest.h>
#include <poll.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "jbench/oracle/ledger.h"
#include "jbench/oracle/ledger_file.h"
#include "jbench/oracle/ledger_line.h"
#include "jbench/oracle/ledger_plan.h"
#include "jbench/proc/child_process.h"

namespace jbench::oracle {
namespace {

constexpr std::uint64_t kSeed = 3;

class LedgerWriterResume : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("jbench-ledger-resume-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
            std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    layout_.writers = 1;
    ASSERT_TRUE(create_ledger_database(db(), layout_, JournalMode::rollback).ok());
  }
  void TearDown() override {
    if (!HasFailure()) std::filesystem::remove_all(dir_);
  }

  std::string db() const { return (dir_ / "ledger.db").string(); }
  std::string ledger() const { return ledger_path_for(dir_.string(), 0); }

  // The transaction the writer itself would run as (writer 0, seq), as a ledger line.
  LedgerLine planned(std::uint64_t inc, std::uint64_t seq) const {
    LedgerLine l;
    l.incarnation = inc;
    l.seq = seq;
    l.body = plan_body(layout_.variant, plan_transaction(layout_, kSeed, 0, seq));
    l.checksum = transaction_checksum(0, seq, l.body);
    return l;
  }

  // Commits `line` to the database as the writer would (its kv writes and its txns row).
  void commit_to_db(const LedgerLine& line) {
    sqlite3* h = nullptr;
    ASSERT_EQ(sqlite3_open(db().c_str(), &h), SQLITE_OK);
    std::vector<KeyedWrite> writes;
    ASSERT_TRUE(parse_keyed_body(line.body, writes));
    std::string sql = "BEGIN;";
    for (const auto& w : writes) {
      sql += "INSERT INTO kv VALUES(" + std::to_string(w.key) + "," + std::to_string(w.value) +
             ",0," + std::to_string(line.seq) +
             ") ON CONFLICT(key) DO UPDATE SET value=excluded.value, seq=excluded.seq;";
    }
    sql += "INSERT INTO txns VALUES(0," + std::to_string(line.seq) + "," +
           std::to_string(line.incarnation) + ",'" + line.body + "','" +
           checksum_hex(line.checksum) + "');COMMIT;";
    EXPECT_EQ(sqlite3_exec(h, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(h);
  }

  void append(const std::string& text) { std::ofstream(ledger(), std::ios::app) << text; }

  // Runs incarnation `inc` of writer 0 to the end; returns its final report.
  nlohmann::json run_writer(std::uint64_t inc, std::uint64_t transactions) {
    proc::SpawnSpec spec;
    spec.executable = JBENCH_LEDGER_WORKER_PATH;
    spec.args = {"writer",
                 "--db",
                 db(),
                 "--ledger",
                 ledger(),
                 "--writer",
                 "0",
                 "--incarnation",
                 std::to_string(inc),
                 "--transactions",
                 std::to_string(transactions),
                 "--seed",
                 std::to_string(kSeed),
                 "--variant",
                 "keyed",
                 "--journal",
                 "rollback",
                 "--deadline-ms",
                 "20000"};
    spec.stderr_path = (dir_ / "writer.stderr").string();
    auto spawned = proc::ChildProcess::spawn(spec);
    EXPECT_TRUE(spawned) << spawned.error().message;
    if (!spawned) return {};
    auto& child = **spawned;
    std::vector<std::string> lines;
    bool overlong = false;
    bool released = false;
    bool open = true;
    for (int i = 0; i < 2000 && !child.try_reap(); ++i) {
      // Once its stdout is closed poll() returns at once: wait for the exit instead, so a slow
      // exit on a busy host is not 2000 spins in a few milliseconds.
      if (open) {
        pollfd p{child.stdout_fd(), POLLIN, 0};
        ::poll(&p, 1, 10);
        open = child.read_lines(lines, overlong);
      } else {
        ::usleep(10'000);
      }
      if (!released && !lines.empty()) {
        const Status sent = child.write_line("go", 1000);
        EXPECT_TRUE(sent) << sent.error().message;
        released = true;
      }
    }
    child.read_lines(lines, overlong);
    EXPECT_TRUE(child.reaped() && child.status()->code == 0 && !child.status()->signaled)
        << (child.reaped() ? child.status()->describe() : "still running");
    if (!child.reaped()) child.kill_and_reap();
    return lines.size() >= 2 ? nlohmann::json::parse(lines.back(), nullptr, false)
                             : nlohmann::json();
  }

  LedgerVerdict verify() {
    auto v = verify_ledgers(db(), {ledger()}, layout_);
    EXPECT_TRUE(v.ok());
    return v.ok() ? *v : LedgerVerdict{};
  }

  std::filesystem::path dir_;
  LedgerLayout layout_;
};

TEST_F(LedgerWriterResume, skips_the_transaction_its_predecessor_committed_but_never_ledgered) {
  // Incarnation 0 ledgered seq 1, committed seq 2 and was killed before its ledger append.
  append("start w=0 inc=0 next=1\n" + format_ledger_line(planned(0, 1)) + "\n");
  commit_to_db(planned(0, 1));
  commit_to_db(planned(0, 2));
  const auto report = run_writer(1, 5);
  EXPECT_EQ(report.value("first_seq", 0), 3);
  EXPECT_EQ(report.value("committed", 0), 3);
  const auto v = verify();
  EXPECT_TRUE(v.passed()) << v.to_json().dump(2);
  EXPECT_EQ(v.unledgered_after_kill, 1u);
  EXPECT_EQ(v.committed, 5u);
}

TEST_F(LedgerWriterResume, terminates_a_torn_final_line_before_its_own_start_line) {
  append("start w=0 inc=0 next=1\n" + format_ledger_line(planned(0, 1)) + "\n");
  commit_to_db(planned(0, 1));
  commit_to_db(planned(0, 2));
  append(format_ledger_line(planned(0, 2)).substr(0, 30));  // killed mid-append
  run_writer(1, 4);
  auto file = read_ledger_file(ledger());
  ASSERT_TRUE(file);
  ASSERT_EQ(file->torn.size(), 1u);
  EXPECT_TRUE(file->torn[0].tolerated);
  EXPECT_EQ(file->torn[0].line_number, 3u);
  const auto v = verify();
  EXPECT_TRUE(v.passed()) << v.to_json().dump(2);
  EXPECT_EQ(v.torn_final_lines, 1u);
  EXPECT_EQ(v.unledgered_after_kill, 1u);
}

TEST_F(LedgerWriterResume, redoes_the_transaction_its_predecessor_was_killed_in) {
  // Killed before seq 2 committed: nothing of it is in the database; the next one runs it.
  append("start w=0 inc=0 next=1\n" + format_ledger_line(planned(0, 1)) + "\n");
  commit_to_db(planned(0, 1));
  const auto report = run_writer(1, 3);
  EXPECT_EQ(report.value("first_seq", 0), 2);
  const auto v = verify();
  EXPECT_TRUE(v.passed()) << v.to_json().dump(2);
  EXPECT_EQ(v.unledgered_after_kill, 0u);
  EXPECT_EQ(v.ledgered, 3u);
}

}  // namespace
}  // namespace jbench::oracle
