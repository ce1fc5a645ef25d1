#include "jbench/oracle/fault_check.h"

#include <algorithm>

namespace jbench::oracle {

std::string_view to_string(FaultFindingKind kind) {
  switch (kind) {
    case FaultFindingKind::reopen_failed:
      return "reopen_failed";
    case FaultFindingKind::integrity:
      return "integrity";
    case FaultFindingKind::committed_lost:
      return "committed_lost";
    case FaultFindingKind::partial_visible:
      return "partial_visible";
    case FaultFindingKind::uncommitted_visible:
      return "uncommitted_visible";
    case FaultFindingKind::point_not_reached:
      return "point_not_reached";
    case FaultFindingKind::diverged:
      return "diverged";
  }
  return "?";
}

StateCheck check_state(const std::vector<std::string>& prefix_states, const RunObservation& seen) {
  StateCheck out;
  if (!seen.reopened) {
    out.finding = FaultFindingKind::reopen_failed;
    out.detail = seen.reopen_error;
    return out;
  }
  if (seen.integrity != "ok") {
    out.finding = FaultFindingKind::integrity;
    out.detail = "integrity_check: " + seen.integrity;
    return out;
  }
  auto it = std::find(prefix_states.begin(), prefix_states.end(), seen.content);
  const std::string acked = std::to_string(seen.acknowledged);
  if (it == prefix_states.end()) {
    out.finding = FaultFindingKind::partial_visible;
    out.transaction = seen.acknowledged + 1;
    out.detail =
        "the content equals the state after no prefix of the set (" + acked + " acknowledged)";
    return out;
  }
  const auto prefix = static_cast<std::size_t>(it - prefix_states.begin());
  out.matched_prefix = prefix;
  const std::size_t most = seen.acknowledged + (seen.commit_in_doubt ? 1 : 0);
  if (prefix < seen.acknowledged) {
    out.finding = FaultFindingKind::committed_lost;
    out.transaction = prefix + 1;
    out.detail = "transactions " + std::to_string(prefix + 1) + ".." + acked +
                 " were acknowledged but the state is the one after " + std::to_string(prefix);
  } else if (prefix > most) {
    out.finding = FaultFindingKind::uncommitted_visible;
    out.transaction = most + 1;
    out.detail = "the state after " + std::to_string(prefix) + " transactions is visible, but " +
                 "only " + std::to_string(most) + " could have committed";
  }
  return out;
}

}  // namespace jbench::oracle
