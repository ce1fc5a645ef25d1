// The order a proposal's sessions run in: pairs, one session of each side per pair, the side
// that goes first drawn per pair from the seed. Pairs keep the two sides side by side in time,
// so the host's drift falls on both; the draw keeps a fixed order (always baseline first) from
// lining up with anything periodic on the host. Pure and recorded in the evidence.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace jbench::proposal_rules {

enum class Side { baseline, candidate };
std::string_view to_string(Side s);

// 2 × `sessions` entries, `sessions` of each side.
std::vector<Side> session_order(std::uint64_t seed, std::uint32_t sessions);

}  // namespace jbench::proposal_rules
