// What a worker's first line must prove before the process is registered as a cohort member:
// it speaks worker protocol 1, it is the process that was spawned (a wrapper that forks the
// real worker would make every later measurement misattributed), and it carries a fresh 128-bit
// runtime id. The cohort runner (harness/execution/run) and the ledger storms (oracle/ledger) both
// register through this check.
//
//   if (Status s = check_worker_hello(hello, child->pid(), "worker 2"); !s) fail(s.error());
#pragma once

#include <sys/types.h>

#include <nlohmann/json.hpp>
#include <string>

#include "jbench/common/result.h"

namespace jbench::proc {

// Whether the hello proves all three; if not why not, naming `who` (an input error).
Status check_worker_hello(const nlohmann::json& hello, pid_t spawned, const std::string& who);

// 32 lowercase hex digits, not all zero.
bool is_runtime_id(const nlohmann::json& value);

}  // namespace jbench::proc
