// What a run's lane label promises about its measure phase, as a whole: the one rule the runner
// applies when it decides a run's status and the validator applies when it re-checks a bundle.
// Single workers are held to less (workloads/*: a worker only never does what its lane forbids),
// because a mixed worker's short window may hold one kind, and a starved worker holds none.
//
//   if (Status s = check_lane_mix("mixed", reads, writes); !s) fail(s.error().message);
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace jbench {

struct LaneRule {
  bool needs_reads = false;     // reader, mixed
  bool needs_writes = false;    // writer, mixed
  bool forbids_reads = false;   // writer
  bool forbids_writes = false;  // reader
};

// The rule of a lane label; an unknown label promises nothing.
LaneRule lane_rule(std::string_view lane);

// Why `reads` and `writes`, summed over a run's workers, break its lane's rule; nullopt if they
// keep it. The sentence starts with "lane_violation".
Status check_lane_mix(std::string_view lane, std::uint64_t reads, std::uint64_t writes);

}  // namespace jbench
