// A comparison side made by hand for the comparison's unit tests: one valid bundle of a one-cell
// SQLite matrix on one host and build, whose cell `w1.d.baseline` holds the given values of one
// metric, one per run.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "jbench/compare/compare_side.h"
#include "jbench/matrix/load.h"

namespace jbench::compare::test {

inline CompareSide hand_made_side(const std::string& dir, const std::string& metric,
                                  std::vector<double> values) {
  static const char* kMatrix =
      "version: 1\nname: m\nseed: 1\nworkload: {kind: sqlite}\n"
      "phases: {warmup: {operations: 10}, measure: {operations: 100}}\n"
      "limits: {max_workers: 1, run_timeout_s: 10, output_mib: 1}\n"
      "axes:\n  workers: [1]\n  connection: [persistent]\n  lane: [writer]\n  dataset:\n"
      "    - {name: d, rows: 10, row_bytes: 8, page_cache_kib: 64}\n";
  CompareSide s;
  s.dir = dir;
  s.valid = true;
  LoadedMatrix m = parse_matrix(kMatrix, "m.yaml");
  EXPECT_TRUE(m.matrix) << format_diagnostics(m.diagnostics);
  s.matrix = std::move(m.matrix);
  s.host.cpu_model = "X";
  s.host.cpus_usable = "2";
  s.host.memory_total_mib = 1000;
  s.workload_binaries = {"abc /bin/worker"};
  SideCell& c = s.cells["w1.d.baseline"];
  c.runs = c.ok = values.size();
  c.metrics[metric] = std::move(values);
  return s;
}

}  // namespace jbench::compare::test
