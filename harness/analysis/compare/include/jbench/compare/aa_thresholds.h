// Each metric's threshold from its own measured A/A noise, instead of one constant for all: how
// far from 1 a comparison's 95% interval strays when nothing changed says what change that metric
// can be trusted to show on this host.
//
//   auto aa = thresholds_from_aa({{"night-3.compare.json", doc}}, 0.005);
//   if (!aa.problems.empty()) refuse(aa.problems);
//   options.metric_thresholds = aa.thresholds;   // throughput 0.071, p50 0.034, vm_steps 0.005...
//
// An A/A comparison is `jbench compare --json` of two sides that ran one build (the nightly's
// nights whose base build is tonight's, or ci/calibrate.sh's unplanted nights). A metric's
// threshold is the farthest any of its rows' intervals reached from 1 (1 − ci_low or ci_high − 1),
// in any cell of any of the reports, and never below `floor`.
#pragma once

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace jbench::compare {

struct AaThresholds {
  std::map<std::string, double> thresholds;  // metric -> relative threshold
  std::size_t rows = 0;                      // the rows with an interval they were read from
  std::vector<std::string> problems;         // "FILE: why it is not an A/A comparison"
};

// `reports`: (file name, its parsed document). A document that is not a compare report, or whose
// two sides ran different builds or settings, is a problem, never read as noise.
AaThresholds thresholds_from_aa(const std::vector<std::pair<std::string, nlohmann::json>>& reports,
                                double floor);

}  // namespace jbench::compare
