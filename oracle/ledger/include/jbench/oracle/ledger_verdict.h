// What a ledger storm or a ledger verification found: exact counts, the SQLite integrity check,
// the process incarnations that ran, and findings that name the writer and transaction.
//
//   if (!verdict.passed()) for (const auto& f : verdict.findings) std::cerr << f << '\n';
//   bundle.write_json("oracle/ledger.json", verdict.to_json());
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "jbench/oracle/ledger_config.h"

namespace jbench::oracle {

// One process incarnation, registered (hello: pid and runtime id) before it did any work.
struct LedgerIncarnation {
  std::string role;  // "writer" or "reader"
  std::size_t index = 0;
  std::size_t incarnation = 0;  // 0 for the first process of a writer, +1 per restart
  pid_t pid = 0;
  std::uint64_t start_time_ticks = 0;  // /proc/<pid>/stat field 22: survives pid reuse
  std::string runtime_id;              // 128-bit, hex, from the hello
  std::string ended;                   // "killed by the storm", "exit 0", "signal 9 (Killed)"...
};

struct LedgerVerdict {
  // What ran (copied from the config; verify_ledgers alone leaves the storm fields at zero).
  JournalMode journal = JournalMode::wal;
  LedgerVariant variant = LedgerVariant::keyed;
  BrokenWriter broken = BrokenWriter::none;
  std::uint64_t seed = 0;

  // The database against the ledgers.
  std::size_t committed = 0;            // txns rows in the database
  std::size_t ledgered = 0;             // txn lines in the ledgers
  std::size_t lost = 0;                 // ledgered, not in the database
  std::size_t visible_uncommitted = 0;  // in the database, neither ledgered nor allowed
  // In the database, unledgered, but exactly the next seq of an incarnation that did not end:
  // killed after COMMIT returned and before its ledger append was durable. Allowed.
  std::size_t unledgered_after_kill = 0;
  std::size_t rolled_back_visible = 0;  // rows of rolled_back_probe: a rolled-back write kept
  std::size_t state_mismatches = 0;     // keys or balances that differ from the replay
  std::size_t checksum_mismatches = 0;  // a ledger line or txns row whose sum is wrong
  std::size_t ledger_errors = 0;        // untolerated torn lines, seq out of order, wrong writer
  std::size_t torn_final_lines = 0;     // tolerated: what a kill mid-append leaves
  std::string integrity_check;          // PRAGMA integrity_check, its rows joined by "; "
  std::int64_t balance_total = 0;       // bank: the database's sum of balances
  std::int64_t expected_balance_total = 0;

  // The paths the committed transactions took.
  std::size_t aborted_attempts = 0;  // fully rolled back (ROLLBACK) before a committed one
  std::size_t savepoints_kept = 0;
  std::size_t savepoints_rolled_back = 0;

  // The storm (run_ledger_storm sets storm_ran; verify_ledgers alone leaves these at zero).
  bool storm_ran = false;
  std::size_t kills_requested = 0;
  std::size_t kills_done = 0;
  // Where each killed writer was when it died (ledger_phase.h names): "in_transaction",
  // "in_commit", "after_commit_before_ledger", "between_transactions", "starting".
  std::map<std::string, std::size_t> kill_points;
  std::size_t writers_finished = 0;  // writers whose last incarnation ended all transactions
  std::size_t writers = 0;
  std::size_t reader_snapshots = 0;
  std::size_t invariant_violations = 0;  // reader snapshots that broke the invariant
  std::size_t worker_failures = 0;       // a worker that exited badly or did not register
  std::size_t busy_retries = 0;          // SQLITE_BUSY retried by the processes that reported
  bool timed_out = false;
  std::uint64_t storm_ms = 0;
  std::uint64_t verify_ms = 0;
  std::string boot_id;  // with (pid, start_time_ticks), what makes an incarnation unique
  std::vector<LedgerIncarnation> incarnations;

  // Human sentences naming the writer, incarnation and seq; capped at kMaxFindings (the counts
  // above stay exact).
  std::vector<std::string> findings;
  std::size_t findings_dropped = 0;
  static constexpr std::size_t kMaxFindings = 200;
  void add_finding(std::string finding);

  // Nothing lost, nothing rolled back or uncommitted visible, state equal to the replay, sound
  // ledgers and database, readers saw the invariant, and (for a storm) every writer finished in
  // time with no worker failing.
  bool passed() const;
  nlohmann::json to_json() const;
};

}  // namespace jbench::oracle
