// What the syscall collector observed, as the facts of the one status rule (api/status.h). Pure.
//
//   not_available       the host cannot run the backend (the reason and the remediation)
//   collector_failed    did not start, attach not verified (a worker's canary never seen), the
//                       backend died, exited non-zero or by a signal, events dropped, malformed
//                       output, over the output bound, or a fault a backend reported
//   no_events_observed  all proven, and no traced call happened
//   ok                  all proven, and calls were recorded
// A failure's reason lists every fact that failed, in that order, separated by "; ".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "jbench/collectors/api/status.h"

namespace jbench::collectors::syscall_detail {

struct SyscallFacts {
  std::string unavailable;  // non-empty: not_available
  std::string start_failure;
  bool attach_verified = false;
  bool canaries_awaited = false;
  std::vector<std::uint32_t> missing_canaries;  // worker indexes
  bool ended_known = false;
  bool ended_by_signal = false;
  int exit_code = 0;
  int signal = 0;
  bool died_during_run = false;
  bool killed_at_deadline = false;
  std::uint64_t dropped = 0;
  std::uint64_t malformed = 0;
  bool over_bound = false;
  std::uint64_t max_output_bytes = 0;
  std::vector<std::string> problems;
  std::uint64_t records = 0;
};

// Words every failed fact, in the order above, and lets the one rule decide.
StatusDecision decide_status(const SyscallFacts& facts);

}  // namespace jbench::collectors::syscall_detail
