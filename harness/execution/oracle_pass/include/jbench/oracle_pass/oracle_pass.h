// The correctness pass an oracle matrix describes (oracle_matrix.h, docs/oracle.md): the corpus
// and the generated stream played against the target and the oracle, the metamorphic checks on
// the target, the multiprocess ledgers under SIGKILL storms and the I/O-fault loop; every first
// divergence reduced to a runnable script. `jbench oracle` writes the record as its own bundle
// (oracle_bundle.h); `jbench run` writes it into a performance bundle whose matrix asks for it.
//
//   PassOptions o{.work_dir = scratch, .ledger_worker = dir + "/jbench-ledger-worker"};
//   Result<OracleRecord> r = run_oracle_pass(matrix, o);
//   if (!r) return 2;                      // bad input: a corpus syntax error, a missing engine
//   return r->passed() ? 0 : 1;            // 1: a divergence, a lost or visible transaction...
//
// A finding is never an Error: an engine that crashes or hangs, a lost commit, a corrupt file
// are the pass's results, recorded with what they name. Errors are what stops the pass from
// checking at all, and they are refused before anything runs where they can be.
#pragma once

#include <functional>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "jbench/common/result.h"
#include "jbench/matrix/oracle_matrix.h"

namespace jbench::oracle_pass {

struct PassOptions {
  std::string work_dir;         // scratch for the ledgers' and the fault loop's databases
  std::string ledger_worker;    // jbench-ledger-worker, absolute
  std::ostream* log = nullptr;  // one line per check as it starts and ends
  // Asked between statements and between checks: true (Ctrl-C, SIGTERM) stops the pass, and
  // the record says which checks it cut ("interrupted") and which it never began.
  std::function<bool()> should_stop;
};

struct OracleRecord {
  // oracle.json: {"schema": "jbench.oracle", ..., "passed", "sections": {...}}.
  nlohmann::json document;
  // Other files of the record, relative to it: reductions/<check>.sql.
  std::vector<std::pair<std::string, std::string>> files;
  bool passed() const { return document.value("passed", false); }
  bool interrupted() const { return document.value("interrupted", false); }
};

Result<OracleRecord> run_oracle_pass(const OracleMatrix& matrix, const PassOptions& options);

// The section status words: every section is exactly one of these.
inline constexpr const char* kPassed = "passed";
inline constexpr const char* kFailed = "failed";
inline constexpr const char* kNotRequested = "not_requested";
inline constexpr const char* kInterrupted = "interrupted";  // stopped by a signal, or never begun

}  // namespace jbench::oracle_pass
