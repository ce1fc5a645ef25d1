// The command line of jbench-ledger-worker (docs/oracle-ledger.md, "The worker"):
//   jbench-ledger-worker writer --db F --ledger F --writer W --incarnation I --transactions N
//                               --seed S --variant keyed|bank --journal wal|rollback
//                               [--broken none|ledger_before_commit|savepoint_leak]
//                               [--keys-per-writer K] [--accounts A] [--initial-balance B]
//                               [--deadline-ms D] [--hold-end yes|no]
//   jbench-ledger-worker reader --db F --index R --variant keyed|bank --journal wal|rollback
//                               [--accounts A] [--initial-balance B] [--deadline-ms D]
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "jbench/oracle/ledger_config.h"

namespace jbench::oracle::ledger_worker {

struct WorkerOptions {
  std::string role;  // "writer" or "reader"
  std::string db_path;
  std::string ledger_path;
  std::uint64_t index = 0;  // the writer (or reader) index
  std::uint64_t incarnation = 0;
  std::uint64_t transactions = 0;
  std::uint64_t seed = 1;
  LedgerLayout layout;
  JournalMode journal = JournalMode::wal;
  BrokenWriter broken = BrokenWriter::none;
  std::uint64_t deadline_ms = 60000;  // from the worker's own start: it stops by itself then
  // A writer done with its transactions waits for "finish" on stdin before its end marker, so
  // that a storm's kills are all done before any writer is (whatever the host's speed).
  bool hold_end = false;
};

// Empty with `error` set on a malformed command line.
std::optional<WorkerOptions> parse_worker_options(int argc, char** argv, std::string& error);

}  // namespace jbench::oracle::ledger_worker
