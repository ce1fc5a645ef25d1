// An oracle matrix: what `jbench oracle` checks before any timing is believed — the engine under
// test (the target), the engine it is compared with (the oracle), and the checks to run: the
// query corpus, the seeded generator, the metamorphic checks, the multiprocess ledgers under
// SIGKILL storms and the I/O-fault loop. The file format is docs/oracle.md's.
//
//   LoadedOracleMatrix m = load_oracle_matrix_file("matrices/oracle.yaml");
//   if (!m.matrix) { std::cerr << format_diagnostics(m.diagnostics); return 2; }
//
// Decoding is strict and located like a run matrix's (unknown keys, wrong types and ranges are
// file:line:col diagnostics, all reported at once); paths are kept as written, relative to the
// matrix file's directory, and resolved by whoever reads the files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/common/diagnostic.h"

namespace jbench {

struct OracleEngineSpec {
  enum class Kind { sqlite, command };
  Kind kind = Kind::sqlite;
  // kind == sqlite: in-process libsqlite3, a private in-memory database per check.
  std::vector<std::string> pragmas;  // "PRAGMA <p>" after opening, in order
  bool optimizer_off = false;        // every planner optimization off (a naive oracle)
  // kind == command: an engine process speaking docs/oracle-protocol.md.
  std::vector<std::string> command;   // argv; argv[0] relative to the matrix file or on PATH
  std::uint32_t timeout_ms = 10'000;  // per statement
  SourceLocation where;
};

struct OracleGeneratorSpec {
  std::uint64_t statements = 10'000;
  std::uint64_t seed = 0;  // default: the matrix's seed
};

struct OracleLedgerSpec {
  std::string journal = "wal";    // wal | rollback
  std::string variant = "keyed";  // keyed | bank
  std::string broken = "none";    // none | ledger-before-commit | savepoint-leak: fixtures to catch
  std::uint64_t writers = 3;
  std::uint64_t readers = 1;
  std::uint64_t transactions_per_writer = 200;
  std::uint64_t kills = 50;
  std::uint32_t timeout_ms = 120'000;
};

struct OracleFaultSpec {
  std::vector<std::string> journal_modes = {"wal", "rollback"};
  std::string synchronous = "FULL";
};

// Crash states from one recorded run per journal mode (oracle/crash_states.h).
struct OracleCrashStateSpec {
  std::vector<std::string> journal_modes = {"wal", "rollback"};
  std::string synchronous = "FULL";
  std::uint64_t transactions = 200;
};

struct OracleMatrix {
  std::string file;
  std::string sha256;
  std::string source_text;
  std::string name;
  std::string description;
  std::uint64_t seed = 0;
  OracleEngineSpec target;
  std::optional<OracleEngineSpec> oracle;  // needed by corpus and generator
  std::vector<std::string> corpus;         // files or directories of *.test, as written
  // Each corpus file also runs this many times with the names it creates drawn from the seed
  // (oracle/instantiate.h).
  std::uint64_t corpus_seeds = 0;
  std::optional<OracleGeneratorSpec> generator;
  std::optional<std::uint64_t> metamorphic_cases;  // TLP and NoREC on the target alone
  std::optional<std::uint64_t> plan_queries;       // the query-plan oracle, on the target alone
  std::vector<OracleLedgerSpec> ledgers;
  std::optional<OracleFaultSpec> faults;
  std::optional<OracleCrashStateSpec> crash_states;
  // Capabilities the target may decline without failing the pass (`waive: [prepared]`): what a
  // target declines is otherwise a finding, never a check silently skipped.
  std::vector<std::string> waived;
  // `deadline_s`: the whole pass's bound. Reached, the pass stops between statements and checks
  // and is interrupted, never passed (an engine answering just under each statement's timeout
  // would otherwise stretch a pass to days).
  std::optional<std::uint64_t> deadline_s;
};

struct LoadedOracleMatrix {
  std::optional<OracleMatrix> matrix;
  std::vector<Diagnostic> diagnostics;
};

LoadedOracleMatrix parse_oracle_matrix(std::string_view text, const std::string& file);
LoadedOracleMatrix load_oracle_matrix_file(const std::string& path);

}  // namespace jbench
