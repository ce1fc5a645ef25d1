// The pure half of the fault loop: given the database states after each prefix of a transaction
// set, and what one faulted run acknowledged and left behind, say whether SQLite kept its promise.
//
//   std::vector<std::string> states = {s0, s1, s2};   // before any, after T1, after T1 and T2
//   RunObservation seen{.acknowledged = 2, .integrity = "ok", .content = s1};
//   check_state(states, seen).finding == FaultFindingKind::committed_lost;   // T2 was acknowledged
//
// The promise: the database passes integrity_check and equals the state after some prefix of the
// set (atomicity: nothing partial), and that prefix holds every transaction whose COMMIT
// returned SQLITE_OK (durability) and nothing beyond the transaction whose COMMIT was in flight
// when the fault hit (a failed COMMIT may have reached its commit point or not).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jbench::oracle {

enum class FaultFindingKind {
  reopen_failed,        // the database could not be opened or read afterwards
  integrity,            // PRAGMA integrity_check did not say "ok"
  committed_lost,       // an acknowledged transaction is absent
  partial_visible,      // the content equals no prefix of the set: part of a transaction shows
  uncommitted_visible,  // a transaction whose COMMIT never ran is present
  point_not_reached,    // the faulted run never reached the point the fault-free run had
  diverged,             // the I/O before the point differed from the fault-free run's
};
std::string_view to_string(FaultFindingKind kind);

// What a run acknowledged, and what a fresh connection (without the shim) read afterwards.
struct RunObservation {
  std::size_t acknowledged = 0;  // transactions 1..acknowledged got SQLITE_OK from COMMIT
  bool commit_in_doubt = false;  // transaction acknowledged + 1 ran COMMIT and it failed
  bool reopened = true;
  std::string reopen_error;  // when !reopened
  std::string integrity;     // integrity_check's rows, joined with newlines; "ok" when sound
  std::string content;       // the canonical dump of the checked table(s)
};

struct StateCheck {
  std::optional<FaultFindingKind> finding;  // none: the promise held
  // The prefix the content equals (0 = no transaction), when it equals one.
  std::optional<std::size_t> matched_prefix;
  // The first transaction (1-based) the finding is about: the first lost one for
  // committed_lost, the first visible uncommitted one for uncommitted_visible; else 0.
  std::size_t transaction = 0;
  std::string detail;
};

// `prefix_states[i]` is the content after transactions 1..i; they must be pairwise distinct.
StateCheck check_state(const std::vector<std::string>& prefix_states, const RunObservation& seen);

}  // namespace jbench::oracle
