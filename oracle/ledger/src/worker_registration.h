// Starting one jbench-ledger-worker incarnation the way the cohort runner starts a worker:
// spawned through jbench::proc::ChildProcess, registered from its hello (the pid it reports must
// be the pid spawned; a fresh 128-bit runtime id; its /proc start time read while it is blocked)
// and only then released with "go". Private to jbench::oracle_ledger.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "jbench/common/result.h"
#include "jbench/oracle/ledger_verdict.h"
#include "jbench/proc/child_process.h"

namespace jbench::oracle {

struct RegisteredWorker {
  std::unique_ptr<proc::ChildProcess> process;
  LedgerIncarnation record;
  std::vector<std::string> lines;  // what it printed after the hello
  bool eof = false;
};

// `record` names the role, index and incarnation; pid, start time and runtime id are filled in.
Result<RegisteredWorker> spawn_registered(const proc::SpawnSpec& spec, LedgerIncarnation record,
                                          int timeout_ms);

// Waits up to `timeout_ms` for output, then takes every complete line available. Sets `eof`
// when the worker closed its stdout.
void collect_lines(RegisteredWorker& worker, int timeout_ms);

// The first line of a worker's stderr file, for a finding ("" when empty or unreadable).
std::string first_stderr_line(const std::string& path);

}  // namespace jbench::oracle
