// verify_ledgers on hand-made databases and ledgers: each defect the storm can produce (or a
// broken writer, or corruption) is planted once and must be found, named and counted; what a
// kill legitimately leaves (one committed-but-unledgered transaction, a torn final line) must
// not fail the verdict.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "jbench/oracle/ledger.h"
#include "jbench/oracle/ledger_line.h"

namespace jbench::oracle {
namespace {

// Builds a database and ledgers the way correct writers would, with switches to break them.
class LedgerVerify : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("jbench-ledger-verify-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
            std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    if (db_) sqlite3_close(db_);
    std::filesystem::remove_all(dir_);
  }

  void make(LedgerVariant variant, std::size_t writers = 2) {
    layout_.variant = variant;
    layout_.writers = writers;
    layout_.keys_per_writer = 4;
    layout_.accounts = 3;
    layout_.initial_balance = 100;
    ASSERT_TRUE(create_ledger_database(db_path(), layout_, JournalMode::wal).ok());
    ASSERT_EQ(sqlite3_open(db_path().c_str(), &db_), SQLITE_OK);
    for (std::size_t w = 0; w < writers; ++w) std::ofstream(ledger(w)).close();
  }

  std::string db_path() const { return (dir_ / "ledger.db").string(); }
  std::string ledger(std::size_t w) const {
    return (dir_ / ("writer-" + std::to_string(w) + ".ledger")).string();
  }
  std::vector<std::string> ledgers() const {
    std::vector<std::string> out;
    for (std::size_t w = 0; w < layout_.writers; ++w) out.push_back(ledger(w));
    return out;
  }

  void sql(const std::string& text) {
    char* err = nullptr;
    ASSERT_EQ(sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &err), SQLITE_OK) << err;
  }
  void append(std::size_t w, const std::string& text) {
    std::ofstream(ledger(w), std::ios::app) << text;
  }
  void start(std::size_t w, std::uint64_t inc, std::uint64_t next) {
    append(w, "start w=" + std::to_string(w) + " inc=" + std::to_string(inc) +
                  " next=" + std::to_string(next) + "\n");
  }
  void end(std::size_t w, std::uint64_t inc, std::uint64_t last) {
    append(w, "end w=" + std::to_string(w) + " inc=" + std::to_string(inc) +
                  " last=" + std::to_string(last) + "\n");
  }
  std::string txn_line(std::size_t w, std::uint64_t inc, std::uint64_t seq,
                       const std::string& body) {
    LedgerLine l;
    l.writer = w;
    l.incarnation = inc;
    l.seq = seq;
    l.body = body;
    l.checksum = transaction_checksum(w, seq, body);
    return format_ledger_line(l) + "\n";
  }
  // The keyed body of writer w's transaction seq: its first key set to a value fixed by seq.
  std::string keyed_body(std::size_t w, std::uint64_t seq) {
    const auto key = static_cast<std::int64_t>(w * layout_.keys_per_writer + seq % 4);
    return format_keyed_body({{key, static_cast<std::int64_t>(1000 * w + seq)}});
  }

  // A transaction committed to the database (txns row and its effects, in one transaction)
  // and, when `ledgered`, its ledger line.
  void commit(std::size_t w, std::uint64_t inc, std::uint64_t seq, const std::string& body,
              bool ledgered = true) {
    sql("BEGIN");
    if (layout_.variant == LedgerVariant::keyed) {
      std::vector<KeyedWrite> writes;
      ASSERT_TRUE(parse_keyed_body(body, writes));
      for (const auto& kw : writes) {
        sql("INSERT INTO kv VALUES(" + std::to_string(kw.key) + "," + std::to_string(kw.value) +
            "," + std::to_string(w) + "," + std::to_string(seq) +
            ") ON CONFLICT(key) DO UPDATE SET value=excluded.value, seq=excluded.seq");
      }
    } else {
      std::vector<Transfer> transfers;
      ASSERT_TRUE(parse_bank_body(body, transfers));
      for (const auto& t : transfers) {
        sql("UPDATE accounts SET balance = balance - " + std::to_string(t.amount) +
            " WHERE id = " + std::to_string(t.from));
        sql("UPDATE accounts SET balance = balance + " + std::to_string(t.amount) +
            " WHERE id = " + std::to_string(t.to));
      }
    }
    sql("INSERT INTO txns VALUES(" + std::to_string(w) + "," + std::to_string(seq) + "," +
        std::to_string(inc) + ",'" + body + "','" +
        checksum_hex(transaction_checksum(w, seq, body)) + "')");
    sql("COMMIT");
    if (ledgered) append(w, txn_line(w, inc, seq, body));
  }

  // Writer w: incarnation 0 commits 1..3 and ends.
  void clean_writer(std::size_t w) {
    start(w, 0, 1);
    for (std::uint64_t seq = 1; seq <= 3; ++seq) commit(w, 0, seq, keyed_body(w, seq));
    end(w, 0, 3);
  }

  LedgerVerdict verify() {
    if (db_) sqlite3_close(db_);
    db_ = nullptr;
    auto v = verify_ledgers(db_path(), ledgers(), layout_);
    EXPECT_TRUE(v.ok()) << (v.ok() ? "" : v.error().message);
    return v.ok() ? *v : LedgerVerdict{};
  }

  static bool names(const LedgerVerdict& v, const std::string& text) {
    for (const auto& f : v.findings) {
      if (f.find(text) != std::string::npos) return true;
    }
    return false;
  }

  std::filesystem::path dir_;
  LedgerLayout layout_;
  sqlite3* db_ = nullptr;
};

TEST_F(LedgerVerify, clean_ledgers_pass) {
  make(LedgerVariant::keyed);
  clean_writer(0);
  clean_writer(1);
  const auto v = verify();
  EXPECT_TRUE(v.passed()) << v.to_json().dump(2);
  EXPECT_EQ(v.committed, 6u);
  EXPECT_EQ(v.ledgered, 6u);
  EXPECT_EQ(v.integrity_check, "ok");
  EXPECT_FALSE(v.storm_ran);
}

TEST_F(LedgerVerify, ledgered_transaction_missing_from_the_database_is_lost) {
  make(LedgerVariant::keyed);
  clean_writer(0);
  start(1, 0, 1);
  commit(1, 0, 1, keyed_body(1, 1));
  append(1, txn_line(1, 0, 2, keyed_body(1, 2)));  // ledgered, never committed
  const auto v = verify();
  EXPECT_FALSE(v.passed());
  EXPECT_EQ(v.lost, 1u);
  EXPECT_TRUE(names(v, "writer 1 seq 2: ledgered (committed) but not in the database"))
      << v.to_json().dump(2);
  // The replay applies what the ledger promises, so the state disagrees too.
  EXPECT_GT(v.state_mismatches, 0u);
}

TEST_F(LedgerVerify, one_unledgered_commit_right_after_a_killed_incarnation_is_allowed) {
  make(LedgerVariant::keyed);
  clean_writer(0);
  start(1, 0, 1);
  commit(1, 0, 1, keyed_body(1, 1));
  commit(1, 0, 2, keyed_body(1, 2), /*ledgered=*/false);  // killed before its ledger append
  start(1, 1, 3);
  commit(1, 1, 3, keyed_body(1, 3));
  end(1, 1, 3);
  const auto v = verify();
  EXPECT_TRUE(v.passed()) << v.to_json().dump(2);
  EXPECT_EQ(v.unledgered_after_kill, 1u);
  EXPECT_EQ(v.committed, 6u);
  EXPECT_EQ(v.ledgered, 5u);
}

TEST_F(LedgerVerify, unledgered_commit_that_is_not_the_next_seq_is_visible_uncommitted) {
  make(LedgerVariant::keyed);
  clean_writer(0);
  start(1, 0, 1);
  commit(1, 0, 1, keyed_body(1, 1));
  commit(1, 0, 2, keyed_body(1, 2), false);
  commit(1, 0, 3, keyed_body(1, 3), false);  // a second one: never allowed
  start(1, 1, 4);
  end(1, 1, 3);
  const auto v = verify();
  EXPECT_FALSE(v.passed());
  EXPECT_EQ(v.unledgered_after_kill, 1u);
  EXPECT_EQ(v.visible_uncommitted, 1u);
  EXPECT_TRUE(names(v, "writer 1 seq 3 (incarnation 0): in the database but not in the ledger"))
      << v.to_json().dump(2);
}

TEST_F(LedgerVerify, unledgered_commit_of_an_incarnation_that_ended_is_visible_uncommitted) {
  make(LedgerVariant::keyed, 1);
  start(0, 0, 1);
  commit(0, 0, 1, keyed_body(0, 1));
  commit(0, 0, 2, keyed_body(0, 2), false);
  end(0, 0, 1);  // it says it finished: nothing of it may be unledgered
  const auto v = verify();
  EXPECT_FALSE(v.passed());
  EXPECT_EQ(v.visible_uncommitted, 1u);
  EXPECT_EQ(v.unledgered_after_kill, 0u);
}

TEST_F(LedgerVerify, bad_checksum_in_a_ledger_line_is_caught) {
  make(LedgerVariant::keyed, 1);
  start(0, 0, 1);
  commit(0, 0, 1, keyed_body(0, 1));
  std::string line = txn_line(0, 0, 2, keyed_body(0, 2));
  line[line.size() - 2] = line[line.size() - 2] == '0' ? '1' : '0';  // flip the last hex digit
  sql("INSERT INTO txns VALUES(0, 2, 0, '" + keyed_body(0, 2) + "', '" +
      checksum_hex(transaction_checksum(0, 2, keyed_body(0, 2))) + "')");
  sql("INSERT INTO kv VALUES(" + keyed_body(0, 2).substr(0, 1) +
      ", 2, 0, 2) ON CONFLICT(key) DO "
      "UPDATE SET value=excluded.value, seq=excluded.seq");
  append(0, line);
  end(0, 0, 2);
  const auto v = verify();
  EXPECT_FALSE(v.passed());
  EXPECT_GE(v.checksum_mismatches, 1u);
  EXPECT_TRUE(names(v, "writer 0 seq 2: the ledger line's checksum is wrong"))
      << v.to_json().dump(2);
}

TEST_F(LedgerVerify, bad_checksum_in_a_txns_row_is_caught) {
  make(LedgerVariant::keyed, 1);
  clean_writer(0);
  sql("UPDATE txns SET checksum = '0000000000000000' WHERE seq = 2");
  const auto v = verify();
  EXPECT_FALSE(v.passed());
  EXPECT_TRUE(names(v, "writer 0 seq 2: the txns row's checksum is wrong"));
}

TEST_F(LedgerVerify, torn_final_line_of_a_killed_incarnation_is_tolerated) {
  make(LedgerVariant::keyed, 1);
  start(0, 0, 1);
  commit(0, 0, 1, keyed_body(0, 1));
  // Killed mid-append of seq 2's line: committed, its line cut short without '\n'.
  commit(0, 0, 2, keyed_body(0, 2), false);
  append(0, txn_line(0, 0, 2, keyed_body(0, 2)).substr(0, 25));
  auto v = verify();
  EXPECT_TRUE(v.passed()) << v.to_json().dump(2);
  EXPECT_EQ(v.torn_final_lines, 1u);
  EXPECT_EQ(v.unledgered_after_kill, 1u);
  // The next incarnation terminates the torn line and goes on: still tolerated.
  ASSERT_EQ(sqlite3_open(db_path().c_str(), &db_), SQLITE_OK);
  append(0, "\n");
  start(0, 1, 3);
  commit(0, 1, 3, keyed_body(0, 3));
  end(0, 1, 3);
  v = verify();
  EXPECT_TRUE(v.passed()) << v.to_json().dump(2);
  EXPECT_EQ(v.torn_final_lines, 1u);
}

TEST_F(LedgerVerify, torn_line_in_the_middle_of_an_incarnation_is_an_error) {
  make(LedgerVariant::keyed, 1);
  start(0, 0, 1);
  commit(0, 0, 1, keyed_body(0, 1));
  append(0, "txn w=0 inc=0 seq=2 abo\n");  // torn, then the same incarnation goes on
  commit(0, 0, 2, keyed_body(0, 2));
  end(0, 0, 2);
  const auto v = verify();
  EXPECT_FALSE(v.passed());
  EXPECT_EQ(v.ledger_errors, 1u);
  EXPECT_TRUE(names(v, "torn line 3 in the middle of an incarnation")) << v.to_json().dump(2);
}

TEST_F(LedgerVerify, rolled_back_work_that_stayed_visible_is_caught) {
  make(LedgerVariant::keyed, 1);
  clean_writer(0);
  sql("INSERT INTO rolled_back_probe VALUES(0, 2, 0, 'savepoint')");
  const auto v = verify();
  EXPECT_FALSE(v.passed());
  EXPECT_EQ(v.rolled_back_visible, 1u);
  EXPECT_TRUE(names(v, "writer 0 seq 2 (incarnation 0): rolled-back work is visible"));
}

TEST_F(LedgerVerify, key_value_that_differs_from_the_replay_is_a_state_mismatch) {
  make(LedgerVariant::keyed, 1);
  clean_writer(0);
  sql("UPDATE kv SET value = -5 WHERE key = 1");  // seq 1 wrote key 1
  const auto v = verify();
  EXPECT_FALSE(v.passed());
  EXPECT_EQ(v.state_mismatches, 1u);
  EXPECT_TRUE(names(v, "key 1 = -5 (seq 1), the ledgers say 1 (seq 1)")) << v.to_json().dump(2);
}

TEST_F(LedgerVerify, later_ledgered_write_of_a_key_wins_the_replay) {
  make(LedgerVariant::keyed, 1);
  start(0, 0, 1);
  commit(0, 0, 1, format_keyed_body({{2, 10}}));
  commit(0, 0, 2, format_keyed_body({{2, 20}, {3, 5}, {2, 30}}));
  end(0, 0, 2);
  auto v = verify();
  EXPECT_TRUE(v.passed()) << v.to_json().dump(2);
}

TEST_F(LedgerVerify, bank_balances_are_replayed_and_a_broken_total_is_caught) {
  make(LedgerVariant::bank, 2);
  start(0, 0, 1);
  commit(0, 0, 1, format_bank_body({{0, 1, 30}, {2, 0, 5}}));
  end(0, 0, 1);
  start(1, 0, 1);
  commit(1, 0, 1, format_bank_body({{1, 2, 7}}));
  end(1, 0, 1);
  auto v = verify();
  EXPECT_TRUE(v.passed()) << v.to_json().dump(2);
  EXPECT_EQ(v.balance_total, 300);
  // An unbalanced credit that no ledger explains: the account and the total are both wrong.
  ASSERT_EQ(sqlite3_open(db_path().c_str(), &db_), SQLITE_OK);
  sql("UPDATE accounts SET balance = balance + 1000000 WHERE id = 2");
  v = verify();
  EXPECT_FALSE(v.passed());
  EXPECT_EQ(v.state_mismatches, 1u);
  EXPECT_EQ(v.invariant_violations, 1u);
  EXPECT_TRUE(names(v, "the balances sum to 1000300, not 300"));
}

TEST_F(LedgerVerify, ledger_line_of_another_writer_or_out_of_order_is_an_error) {
  make(LedgerVariant::keyed, 2);
  clean_writer(0);
  start(1, 0, 1);
  commit(1, 0, 2, keyed_body(1, 2));
  commit(1, 0, 1, keyed_body(1, 1));               // seqs must increase
  append(1, txn_line(0, 0, 9, keyed_body(0, 1)));  // writer 0's line in writer 1's ledger
  end(1, 0, 2);
  const auto v = verify();
  EXPECT_FALSE(v.passed());
  EXPECT_EQ(v.ledger_errors, 2u) << v.to_json().dump(2);
}

TEST_F(LedgerVerify, transaction_ledgered_after_its_incarnations_end_is_an_error) {
  make(LedgerVariant::keyed, 1);
  clean_writer(0);
  commit(0, 0, 4, keyed_body(0, 4));
  const auto v = verify();
  EXPECT_FALSE(v.passed());
  EXPECT_EQ(v.ledger_errors, 1u);
  EXPECT_TRUE(names(v, "writer 0 seq 4: ledgered after its incarnation's end line"));
}

TEST_F(LedgerVerify, verdict_json_carries_the_counts_and_findings) {
  make(LedgerVariant::keyed, 1);
  clean_writer(0);
  append(0, txn_line(0, 0, 4, keyed_body(0, 4)));
  const auto json = verify().to_json();
  EXPECT_EQ(json["passed"], false);
  EXPECT_EQ(json["database"]["lost"], 1);
  EXPECT_EQ(json["database"]["integrity_check"], "ok");
  EXPECT_EQ(json["schema"], "jbench.oracle.ledger/1");
  EXPECT_FALSE(json["findings"].empty());
}

}  // namespace
}  // namespace jbench::oracle
