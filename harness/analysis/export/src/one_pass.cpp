#include "one_pass.h"

#include <fmt/format.h>

#include <set>

namespace jbench::exports {

std::optional<OnePassPlan> plan_one_pass(const BundleInput& bundle,
                                         const std::optional<std::string>& only_run,
                                         std::uint64_t max_events) {
  OnePassPlan plan;
  plan.selected.resize(bundle.runs.size());
  std::optional<std::uint64_t> origin;
  std::uint64_t bound = 0;
  bool bounded = true;  // every exported run gave its counts
  std::set<IncarnationKey> cohort;
  for (std::size_t i = 0; i < bundle.runs.size(); ++i) {
    const RunInput& r = bundle.runs[i];
    const bool has_raw = !r.bridge_files.empty() || r.syscall_file.has_value();
    // A run without raw files has no span or call; one with them is checked as it is written.
    if (!has_raw && !only_run) continue;
    plan.selected[i] = true;
    if (!r.boundaries.empty()) {
      origin = std::min(origin.value_or(r.boundaries.front().second), r.boundaries.front().second);
    }
    bound += r.boundaries.size();
    if (r.syscall_file) {
      bounded = bounded && r.syscall_records;
      bound += 3 * r.syscall_records.value_or(0);  // a call, and its wake-up's two slices
    }
    if (!r.bridge_files.empty()) {
      bounded = bounded && r.bridge_records;
      bound += 2 * r.bridge_records.value_or(0);
    }
    for (const Incarnation& inc : r.cohort) cohort.insert({i, {inc.pid, inc.start_time_ticks}});
  }
  // Without a boundary there is no ts 0 to take; past the cap, the counting passes find the cut
  // (a bound above the cap may still fit: they decide). Unknown counts: try, the cap is checked.
  if (!origin || (bounded && bound > max_events)) return std::nullopt;
  plan.origin_ns = *origin;
  std::set<std::int64_t> pids;
  for (const IncarnationKey& key : cohort) {
    // A shared pid needs synthetic pids, which number every incarnation: the two-pass export.
    if (!pids.insert(key.who.pid).second) return std::nullopt;
    plan.sort_index.emplace(key, static_cast<std::int64_t>(plan.sort_index.size()));
  }
  return plan;
}

bool OnePassAdmission::admit(std::uint64_t ts_ns, unsigned weight, EventKind) {
  if (trip_.tripped) return false;
  if (ts_ns < origin_) {
    trip_.trip(
        fmt::format("a record at {} ns precedes the earliest boundary, {} ns", ts_ns, origin_));
    return false;
  }
  if (weight_ + weight > max_) {
    trip_.trip(fmt::format("more than --max-events {} events", max_));
    return false;
  }
  weight_ += weight;
  return true;
}

}  // namespace jbench::exports
