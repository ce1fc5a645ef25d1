// The transactions a writer runs, fixed by (seed, writer, seq) alone, so a new incarnation
// redoes exactly the transaction its predecessor was killed in, and a run can be repeated.
//
// A transaction is a list of steps: plain operations, savepoints that are RELEASEd (kept) and
// savepoints that are rolled back (ROLLBACK TO). Operations in a rolled-back savepoint are
// poison: a keyed write of a negative value (committed values are always positive) or an
// unbalanced credit of kPoisonCredit to an account, so a leak shows in the replayed state and,
// for the bank, in every reader's snapshot sum. Before some transactions the writer runs an
// attempt it rolls back entirely (ROLLBACK), also poison.
//
//   TxnPlan plan = plan_transaction(layout, seed, /*writer=*/0, /*seq=*/17);
//   std::string body = plan_body(layout.variant, plan);  // what the ledger will say
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "jbench/oracle/ledger_config.h"
#include "jbench/oracle/ledger_line.h"

namespace jbench::oracle {

inline constexpr std::int64_t kPoisonCredit = 1000000;

enum class StepKind { plain, savepoint_kept, savepoint_rolled_back };

struct TxnStep {
  StepKind kind = StepKind::plain;
  std::vector<KeyedWrite> writes;   // keyed variant
  std::vector<Transfer> transfers;  // bank variant
};

struct TxnPlan {
  bool abort_first = false;  // run a poison attempt and ROLLBACK it before the real one
  std::vector<TxnStep> steps;
};

TxnPlan plan_transaction(const LedgerLayout& layout, std::uint64_t seed, std::uint64_t writer,
                         std::uint64_t seq);

// The body of the committed transaction: the operations of the kept steps, in order.
std::string plan_body(LedgerVariant variant, const TxnPlan& plan);

}  // namespace jbench::oracle
