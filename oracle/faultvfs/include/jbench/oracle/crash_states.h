// Crash states from one recorded run: a long seeded transaction set runs once through the shim
// (fault_vfs.h) recording every write, truncation, sync and removal with its bytes, and every
// COMMIT as it begins and returns. Then, without running anything again, every state a crash
// could leave on disk is built from that record — at each sync point, what every file had made
// durable, plus seeded subsets of the writes not yet synced (some kept, some lost: written back
// in any order) and a write torn at a sector — and each is opened by a plain connection, whose
// recovery must find exactly the transactions committed, whole (fault_check.h's check).
// docs/oracle-faults.md, "Crash states".
//
//   auto v = explore_crash_states({.journal_mode = FaultJournalMode::wal}, "/tmp/crash");
//   if (!v) return v.error();
//   v->passed();   // no finding and at least one state explored; v->states_explored
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "jbench/common/result.h"
#include "jbench/oracle/fault_check.h"
#include "jbench/oracle/fault_loop.h"

namespace jbench::oracle {

struct CrashStateConfig {
  FaultJournalMode journal_mode = FaultJournalMode::wal;
  std::string synchronous = "FULL";  // OFF, NORMAL, FULL or EXTRA
  std::size_t transactions = 100;
  std::uint64_t seed = 1;
  // Per crash point with unsynced writes, this many seeded subsets of them reach the disk
  // beside the synced state (the first with one of its writes torn at a 512-byte sector).
  std::size_t reorderings = 2;
  std::size_t max_findings = 20;  // recorded; the rest are counted
};

struct CrashFinding {
  FaultFindingKind what = FaultFindingKind::integrity;
  std::size_t event = 0;         // 1-based index into the recorded events: the crash came before it
  std::size_t acknowledged = 0;  // COMMITs that had returned SQLITE_OK by then
  std::size_t transaction = 0;   // the transaction concerned (fault_check.h); 0: none
  std::string variant;           // "synced only", or which unsynced writes reached the disk
  std::string detail;
};

struct CrashStateVerdict {
  CrashStateConfig config;
  std::size_t events = 0;  // recorded file events and marks
  std::size_t syncs = 0;
  std::size_t crash_points = 0;  // distinct points explored
  std::size_t states_explored = 0;
  std::size_t transactions_committed = 0;  // in the recorded run
  std::vector<CrashFinding> findings;
  std::size_t findings_left_off = 0;
  double elapsed_ms = 0;

  bool passed() const { return findings.empty() && findings_left_off == 0 && states_explored > 0; }
  nlohmann::json to_json() const;
};

// Records the run in `work_dir`/crash-<mode>/ and explores its crash states there. An error when
// it cannot run at all (the directory, the starting database, a recorded run that did not commit
// every transaction).
Result<CrashStateVerdict> explore_crash_states(const CrashStateConfig& config,
                                               const std::string& work_dir);

}  // namespace jbench::oracle
