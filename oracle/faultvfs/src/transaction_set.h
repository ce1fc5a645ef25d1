// The fault loop's workload: a schema with seeded starting rows and a few seeded transactions
// (inserts, an update, a savepoint rolled back, a delete, a multi-page insert), as literal SQL so
// the same text runs through the shim and without it. Each transaction changes the table, so the
// states after each prefix are distinct (fault_check.h needs that).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace jbench::oracle::fault_detail {

struct SetTransaction {
  std::string name;                     // "insert", "update", ... for findings
  std::vector<std::string> statements;  // run between BEGIN and COMMIT
};

struct TransactionSet {
  std::vector<std::string> setup;  // creates the table and the starting rows
  std::vector<SetTransaction> transactions;
};

TransactionSet make_transaction_set(std::uint64_t seed);

// A long run for crash-state exploration: the same table with 24 starting rows, then `count`
// transactions, each inserting a row of its own and rewriting an earlier one, so every prefix's
// state is distinct; a quarter of them insert rows that span pages.
TransactionSet make_ledger_set(std::uint64_t seed, std::size_t count);

// The canonical dump the states are compared by: every row of the table, in id order.
inline constexpr const char* kDumpQuery = "SELECT id, k, v FROM t ORDER BY id";

}  // namespace jbench::oracle::fault_detail
