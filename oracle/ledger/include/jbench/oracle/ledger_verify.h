// Checking a database against the writers' ledgers: pure apart from reading the files (no
// process is spawned), so it runs on hand-made ledgers in tests and on 10^6 transactions in the
// benchmark.
//
// What it checks (docs/oracle-ledger.md, "What is checked"):
// - PRAGMA integrity_check is "ok";
// - every ledger line parses, carries its writer, a correct checksum and increasing seqs; a torn
//   line is tolerated only as what a kill mid-append leaves (last line, or before a start line);
// - every ledgered transaction is in txns with the same body and checksum (else "lost");
// - every txns row is ledgered, or is the one allowed committed-but-unledgered transaction of an
//   incarnation that did not end: the seq right after that incarnation's last entry (else
//   "visible uncommitted");
// - rolled_back_probe is empty (only rolled-back work writes it);
// - the keys (keyed) or balances (bank) equal the replay of the accepted transactions.
//
//   auto verdict = verify_ledgers(dir + "/ledger.db", {dir + "/writer-0.ledger"}, layout);
#pragma once

#include <string>
#include <vector>

#include "jbench/common/result.h"
#include "jbench/oracle/ledger_config.h"
#include "jbench/oracle/ledger_verdict.h"

namespace jbench::oracle {

// ledger_paths[w] is writer w's ledger. An error only when the database cannot be read at all;
// everything wrong in it is a finding in the verdict.
Result<LedgerVerdict> verify_ledgers(const std::string& db_path,
                                     const std::vector<std::string>& ledger_paths,
                                     const LedgerLayout& layout);

}  // namespace jbench::oracle
