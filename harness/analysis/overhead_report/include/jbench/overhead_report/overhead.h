// Observer overhead: what each trace mode costs against baseline, from the runs a plan paired
// (same cell, same block, same seed, run back to back in a recorded order).
//
//   auto runs = read_bundle_runs("bundles/overhead-...");     // bundle_runs.h
//   OverheadReport r = compute_overhead(*runs.runs);
//   std::cout << overhead_to_text(r);
//
// The ratio of a pair is baseline throughput / traced throughput: how many times longer an
// operation took with the observer on (1.05 = 5% slower). A cell's figure is the median ratio
// over its pairs with a 95% percentile-bootstrap interval of that median (2000 resamples, a
// fixed seed, so the report is reproducible byte for byte).
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "jbench/common/result.h"
#include "jbench/common/run_status.h"
#include "jbench/common/trace_mode.h"
#include "jbench/model/documents.h"
#include "jbench/model/summary.h"

namespace jbench::overhead_report {

struct RunFacts {
  std::string id;
  std::string cell;  // the point without its trace mode: "w2.cold.mixed.tiny"
  TraceMode trace = TraceMode::baseline;
  // Its name, as cells are keyed and reports print it ("no-consumer").
  std::string trace_name() const { return std::string(trace_mode_name(trace)); }
  std::size_t block = 0;
  std::size_t order = 0;
  // How it ended; none for a word jbench does not write (a damaged manifest): never ok.
  std::optional<RunStatus> status;
  std::string seed;  // the run's seed, as the manifest writes it (a decimal string)
  // The run's measure phase, CLOCK_MONOTONIC ns (run.json boundaries); unset when not recorded.
  std::optional<std::pair<std::uint64_t, std::uint64_t>> measure_window;
  double throughput = 0;
  // axis -> value, trace excluded, in the matrix's axis order (by name without a plan)
  std::vector<std::pair<std::string, std::string>> values;
  // Its cell's position among the cells of the bundle's plan.json (the matrix's axis order);
  // unset where the bundle has no plan that lists it (cell_order.h).
  std::optional<std::size_t> plan_rank;
  // How long the kernel-side tracer (the syscall collector) took from start to attached, outside
  // the run's phases; unset where no tracer attached.
  std::optional<std::uint64_t> tracer_attach_ns;
  // The collectors that ran cleanly: status "ok" and nothing dropped (bundle_runs.h).
  std::set<std::string> clean_collectors;
  // What counted a counted run: its instructions collector's backend and version, as run.json
  // lists them ("callgrind (valgrind-3.19.0)"); empty where no instructions collector is listed.
  std::string counter_source;
  // Its run.json as read (typed), for the readers that need more of it than these facts: the
  // attribution reads it here instead of parsing the file again. Set by read_bundle_runs.
  std::shared_ptr<const model::RunDocument> document;
  // An ok run's summary.json as read (typed), once for every reader of its figures; or why there
  // is none: the run did not end ok, its summary was not read, or it could not be.
  Result<std::shared_ptr<const model::Summary>> summary =
      Error{"the run's summary.json was not read", 0, ErrorKind::input};
};

struct ModeOverhead {
  std::string cell;
  std::string mode;
  std::size_t pairs = 0;
  std::size_t unpaired = 0;    // runs of this mode whose baseline (or itself) did not succeed
  std::size_t mode_first = 0;  // pairs in which the traced run went before its baseline
  std::optional<double> median_ratio;
  std::optional<double> ci_low;  // set when there are at least 2 pairs
  std::optional<double> ci_high;
};

struct OverheadReport {
  std::vector<ModeOverhead> rows;  // by cell, then mode in documented order
  std::vector<std::string> warnings;
  std::size_t bootstrap_resamples = 2000;
};

OverheadReport compute_overhead(const std::vector<RunFacts>& runs);

std::string overhead_to_text(const OverheadReport& report);
nlohmann::json overhead_to_json(const OverheadReport& report);

}  // namespace jbench::overhead_report
