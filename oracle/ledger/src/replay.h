// The state the ledgers promise: every accepted transaction applied to the starting state, and
// the comparison of that state with the database's. Private to the verifier.
//
// keyed: the last write of each key in its owner's seq order (keys are disjoint per writer, so
// no order between writers is needed). bank: the starting balances plus every transfer (they
// commute, so no order at all is needed).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "jbench/common/result.h"
#include "jbench/oracle/ledger_config.h"
#include "jbench/oracle/ledger_line.h"
#include "jbench/oracle/ledger_verdict.h"
#include "sqlite_db.h"

namespace jbench::oracle {

class Replay {
 public:
  explicit Replay(const LedgerLayout& layout);

  // Applies one transaction, which callers give in seq order per writer. A body that does not
  // parse or names a key or account outside the layout is a state mismatch.
  void apply(std::uint64_t writer, std::uint64_t seq, std::string_view body, LedgerVerdict& v);

  // Compares with kv (keyed) or accounts (bank), counting every differing key or account.
  Status compare(const ledger_sql::Db& db, LedgerVerdict& v) const;

 private:
  struct KeyState {
    bool written = false;
    std::int64_t value = 0;
    std::uint64_t seq = 0;
  };
  Status compare_keys(const ledger_sql::Db& db, LedgerVerdict& v) const;
  Status compare_balances(const ledger_sql::Db& db, LedgerVerdict& v) const;

  LedgerLayout layout_;
  std::vector<KeyState> keys_;          // keyed: index = key
  std::vector<std::int64_t> balances_;  // bank: index = account
  std::vector<KeyedWrite> writes_;      // scratch, reused
  std::vector<Transfer> transfers_;     // scratch, reused
};

}  // namespace jbench::oracle
