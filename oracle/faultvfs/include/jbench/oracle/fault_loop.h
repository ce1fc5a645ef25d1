// The fault loop: run a small seeded transaction set once fault-free through the counting shim
// (fault_vfs.h) to learn its I/O points, then once per point and fault kind on a fresh copy of
// the starting database, and check what a fresh connection without the shim finds
// (fault_check.h). docs/oracle-faults.md says what is checked and what is not.
//
//   auto verdict = run_fault_loop(FaultLoopConfig{}, "/tmp/faults");
//   if (!verdict) return verdict.error();            // could not even run (bad input, host)
//   bundle.write("oracle/faults.json", verdict->to_json().dump(2));
//   return verdict->passed() ? 0 : 1;
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/common/result.h"
#include "jbench/oracle/fault_check.h"
#include "jbench/oracle/fault_vfs.h"

namespace jbench::oracle {

// How the set's transactions are journaled: a write-ahead log, or a rollback journal
// (journal_mode=DELETE).
enum class FaultJournalMode { wal, rollback };
std::string_view to_string(FaultJournalMode mode);  // "wal", "rollback"
std::optional<FaultJournalMode> fault_journal_mode_from_string(std::string_view name);

struct FaultLoopConfig {
  std::vector<FaultJournalMode> journal_modes = {FaultJournalMode::wal, FaultJournalMode::rollback};
  // PRAGMA synchronous for the set's connection: OFF, NORMAL, FULL or EXTRA (any case).
  std::string synchronous = "FULL";
  std::uint64_t seed = 1;  // picks the starting rows and the transactions' values
  std::vector<FaultKind> kinds = {kAllFaultKinds.begin(), kAllFaultKinds.end()};
  // Which I/O points are faulted (all kinds are counted). unlock is left out by default: a
  // failed unlock leaves SQLite's lock state behind, which says nothing about durability.
  std::vector<IoOp> ops = {IoOp::read,     IoOp::write, IoOp::sync,
                           IoOp::truncate, IoOp::lock,  IoOp::remove};
  // For power_loss runs: the chance that each unsynced sector reaches the disk anyway
  // (FaultVfsOptions::unsynced_sector_survival), seeded from `seed` and the point. 0: none does.
  double unsynced_sector_survival = 0;
  // A bound on the fault-free run's faultable points per mode; above it the loop refuses to run.
  std::uint64_t max_points = 2000;
};

// One broken promise: at which point and under which fault, what, and about which transaction.
struct FaultFinding {
  FaultKind kind = FaultKind::transient_error;
  std::uint64_t point = 0;  // 1-based index into the fault-free run's I/O points
  IoOp op = IoOp::write;    // what that point is
  FaultFindingKind what = FaultFindingKind::integrity;
  std::size_t transaction = 0;   // 1-based; 0 when the finding is about no transaction
  std::string transaction_name;  // "insert", ...; empty when transaction is 0
  std::size_t acknowledged = 0;  // how many COMMITs had returned SQLITE_OK in that run
  std::string detail;
};

struct FaultModeResult {
  FaultJournalMode mode = FaultJournalMode::wal;
  std::size_t transactions = 0;
  IoCounts fault_free_counts;          // every I/O point of the fault-free run, per op
  std::uint64_t faultable_points = 0;  // those whose op is in the config's ops
  // Per kind (indexed like kAllFaultKinds): points whose fault actually fired in its run.
  std::array<std::uint64_t, kAllFaultKinds.size()> visited{};
  std::vector<FaultFinding> findings;
  double elapsed_ms = 0;

  std::uint64_t visited_of(FaultKind kind) const { return visited[static_cast<std::size_t>(kind)]; }
};

struct FaultLoopVerdict {
  FaultLoopConfig config;
  std::vector<FaultModeResult> modes;

  // No findings, and every configured kind visited every faultable point of every mode.
  bool passed() const;
  // {"passed", "config": {...}, "modes": [{"journal_mode", "transactions", "io_points":
  //  {"read": n, ...}, "faultable_points", "visited": {"power_loss": n, ...}, "complete",
  //  "findings": [{"kind", "point", "op", "finding", "transaction", "transaction_name",
  //  "acknowledged", "detail"}], "elapsed_ms"}]}
  nlohmann::json to_json() const;
};

// Runs the loop in `work_dir` (created if needed; the loop's files are replaced). An Error means
// the loop could not run (bad config, unwritable directory, a fault-free run that already
// fails); broken promises under faults are findings in the verdict, not errors.
Result<FaultLoopVerdict> run_fault_loop(const FaultLoopConfig& config, const std::string& work_dir);

}  // namespace jbench::oracle
