#include "jbench/proposal_rules/session_order.h"

#include "jbench/common/random.h"

namespace jbench::proposal_rules {

std::string_view to_string(Side s) { return s == Side::baseline ? "baseline" : "candidate"; }

std::vector<Side> session_order(std::uint64_t seed, std::uint32_t sessions) {
  SplitMix64 rng(combine64(seed, 0x70726f706f7365ULL));  // "propose": apart from the plan's draws
  std::vector<Side> order;
  order.reserve(2 * static_cast<std::size_t>(sessions));
  for (std::uint32_t i = 0; i < sessions; ++i) {
    const bool baseline_first = rng.below(2) == 0;
    order.push_back(baseline_first ? Side::baseline : Side::candidate);
    order.push_back(baseline_first ? Side::candidate : Side::baseline);
  }
  return order;
}

}  // namespace jbench::proposal_rules
