// The common case of a chrome-json export to a file, read once instead of twice: what the first
// pass would find is taken from run.json, and every guess is checked as the records are written.
//   - ts 0: the earliest boundary of the exported runs (`startup_start_ns`). A run's records come
//     after its incarnations register, inside startup, so the earliest boundary is also the
//     earliest exported timestamp, as the two-pass export defines it;
//   - no --max-events cut: the collectors' `records` bound the events (a bridge record weighs at
//     most 2, a call 3 with the two slices of a wake-up it draws, a boundary 1);
//   - the runs exported: those with raw files (or the --run);
//   - pids: the OS's, when no two incarnations of the exported cohorts share one; names are
//     written as each track first appears.
// A record that contradicts a guess (earlier than ts 0, more events than the cap, a run with no
// span or call after all, an incarnation outside the cohort) abandons the pass: its temporary
// file is discarded and the export is redone in two passes (export.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "admission.h"
#include "bundle_input.h"
#include "process_map.h"

namespace jbench::exports {

struct OnePassPlan {
  std::vector<bool> selected;  // per run of the bundle
  std::uint64_t origin_ns = 0;
  // Cohort incarnations of the exported runs, ranked in run and pid order: process_sort_index.
  std::map<IncarnationKey, std::int64_t> sort_index;
};

// The plan, or nullopt when the bundle does not allow one (then the two-pass export runs).
std::optional<OnePassPlan> plan_one_pass(const BundleInput& bundle,
                                         const std::optional<std::string>& only_run,
                                         std::uint64_t max_events);

// Why a one-pass export was abandoned; set once. `tripped` is what the reader polls to stop.
struct OnePassTrip {
  bool tripped = false;
  std::string why;
  void trip(std::string reason) {
    if (tripped) return;
    tripped = true;
    why = std::move(reason);
  }
};

// Admits everything, as AdmitAll, while the plan holds: nothing before ts 0, at most the cap.
class OnePassAdmission final : public Admission {
 public:
  OnePassAdmission(std::uint64_t origin_ns, std::uint64_t max_events, OnePassTrip& trip)
      : origin_(origin_ns), max_(max_events), trip_(trip) {}
  bool admit(std::uint64_t ts_ns, unsigned weight, EventKind kind) override;

 private:
  std::uint64_t origin_;
  std::uint64_t max_;
  std::uint64_t weight_ = 0;
  OnePassTrip& trip_;
};

}  // namespace jbench::exports
