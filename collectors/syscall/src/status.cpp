#include "status.h"

#include <fmt/format.h>

namespace jbench::collectors::syscall_detail {

StatusDecision decide_status(const SyscallFacts& f) {
  StatusFacts facts;
  facts.unavailable = f.unavailable;
  facts.records = f.records;
  facts.quiet_reason = "attached and verified; no traced call happened";
  std::vector<std::string>& why = facts.failures;
  if (!f.start_failure.empty()) {
    why.push_back(f.start_failure);
  } else if (!f.canaries_awaited) {
    why.push_back("attachment not verified: the canaries were never awaited");
  } else if (!f.attach_verified) {
    why.push_back(
        f.missing_canaries.empty()
            ? std::string("attachment not verified")
            : fmt::format("attachment not verified: the canary of worker(s) {} was never seen",
                          fmt::join(f.missing_canaries, ", ")));
  }
  if (f.start_failure.empty()) {
    if (f.died_during_run) why.push_back("the backend ended during the run");
    if (f.killed_at_deadline) why.push_back("the backend did not stop by the deadline");
    if (!f.ended_known) {
      why.push_back("the backend's end is unknown");
    } else if (f.ended_by_signal) {
      why.push_back(fmt::format("the backend was killed by signal {}", f.signal));
    } else if (f.exit_code != 0) {
      why.push_back(fmt::format("the backend exited with code {}", f.exit_code));
    }
  }
  if (f.dropped > 0) why.push_back(fmt::format("{} event(s) were dropped", f.dropped));
  if (f.malformed > 0)
    why.push_back(fmt::format("{} malformed line(s) of backend output", f.malformed));
  if (f.over_bound) {
    why.push_back(fmt::format("the output exceeded its bound of {} bytes", f.max_output_bytes));
  }
  for (const auto& p : f.problems) why.push_back(p);
  return ::jbench::collectors::decide_status(facts);
}

}  // namespace jbench::collectors::syscall_detail
