// The database a ledger storm runs against: its schema and starting state, made once by the
// driver before any worker starts (docs/oracle-ledger.md, "Schema").
//
//   txns(writer, seq, incarnation, body, checksum)  one row per committed transaction, written
//                                                   in that transaction
//   kv(key, value, writer, seq)                     keyed: writer w's keys, last (writer, seq)
//   accounts(id, balance)                           bank: shared, fixed total
//   rolled_back_probe(writer, seq, incarnation, what)  written only by work that is rolled back
//
//   Status s = create_ledger_database(dir + "/ledger.db", config.layout(), JournalMode::wal);
#pragma once

#include <string>

#include "jbench/common/result.h"
#include "jbench/oracle/ledger_config.h"

namespace jbench::oracle {

// Creates the file (it must not exist), the tables and the starting balances, and sets the
// journal mode (WAL is persistent in the file; DELETE is SQLite's default).
Status create_ledger_database(const std::string& db_path, const LedgerLayout& layout,
                              JournalMode journal);

}  // namespace jbench::oracle
