#include "jbench/run_summaries/lanes.h"

#include <fmt/format.h>

namespace jbench {

LaneRule lane_rule(std::string_view lane) {
  LaneRule r;
  if (lane == "writer") {
    r.needs_writes = true;
    r.forbids_reads = true;
  } else if (lane == "reader") {
    r.needs_reads = true;
    r.forbids_writes = true;
  } else if (lane == "mixed") {
    r.needs_reads = true;
    r.needs_writes = true;
  }
  return r;
}

Status check_lane_mix(std::string_view lane, std::uint64_t reads, std::uint64_t writes) {
  const LaneRule r = lane_rule(lane);
  const char* why = nullptr;
  if (r.forbids_reads && reads > 0) why = "a writer run may not read";
  if (r.forbids_writes && writes > 0) why = "a reader run may not write";
  if (r.needs_reads && reads == 0) why = "no worker read";
  if (r.needs_writes && writes == 0) why = "no worker wrote";
  if (!why) return {};
  return Error{fmt::format("lane_violation: lane {}: {} (the run's workers counted {} reads and "
                           "{} writes in the measure phase as a whole)",
                           lane, why, reads, writes),
               0, ErrorKind::input};
}

}  // namespace jbench
