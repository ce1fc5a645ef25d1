// The nightly matrix's power and false alarms by simulation, from the recorded runs of a real
// nightly (tests/fixtures/compare/nightly-recorded.json: every run's throughput, p50, p99 and CPU
// time per operation, per cell, from one quiet night of matrices/nightly.yaml on a 2-core VM;
// make-nightly-recorded.sh rebuilds it). Each trial resamples both sides from the recorded runs at
// the repetition count matrices/nightly.yaml declares — so lowering it fails here — and compares
// them as ci/nightly.sh does: split into its sessions, at its threshold (both read from the
// script), FDR 0.05, all cells × metrics in one family. The nightly's two sides run interleaved
// in one night, so resampling one session models them — without any spread between sessions,
// which only real nights have; ci/calibrate.sh checks them.
// - A/A: at most 5% of cells flagged.
// - A planted 5% slowdown of the 1-worker writer (the busy wait per operation ci/calibrate.sh
//   plants: d = t × 0.05 / 0.95 after every statement of every lane — it slows the readers too —
//   so throughput falls by t / (t + d) per worker and latency and CPU per operation rise by d) is
//   found in a writer cell in at least 90% of trials.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "jbench/common/random.h"
#include "jbench/compare/compare.h"
#include "jbench/matrix/load.h"

namespace jbench::compare {
namespace {

using Recorded = std::map<std::string, std::map<std::string, std::vector<double>>>;

Recorded recorded() {
  std::ifstream in(JBENCH_SOURCE_DIR + "/tests/fixtures/compare/nightly-recorded.json");
  auto j = nlohmann::json::parse(in, nullptr, false);
  Recorded out;
  if (!j.is_object()) return out;
  for (const auto& [cell, metrics] : j["cells"].items()) {
    for (const auto& [metric, values] : metrics.items()) {
      out[cell][metric] = values.get<std::vector<double>>();
    }
  }
  return out;
}

// A default of ci/nightly.sh: its `NAME=X` line (threshold, sessions).
double nightly_default(const std::string& name) {
  std::ifstream in(JBENCH_SOURCE_DIR + "/ci/nightly.sh");
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with(name + "=")) return std::stod(line.substr(name.size() + 1));
  }
  ADD_FAILURE() << "ci/nightly.sh has no " << name << "= line";
  return 0;
}

Matrix nightly_matrix() {
  std::ifstream in(JBENCH_SOURCE_DIR + "/matrices/nightly.yaml");
  std::stringstream text;
  text << in.rdbuf();
  LoadedMatrix m = parse_matrix(text.str(), "matrices/nightly.yaml");
  EXPECT_TRUE(m.matrix) << format_diagnostics(m.diagnostics);
  return m.matrix ? *m.matrix : Matrix{};
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

unsigned workers_of(const std::string& cell) {
  return static_cast<unsigned>(std::stoul(cell.substr(1)));
}
bool is_writer(const std::string& cell) { return cell.find(".writer.") != std::string::npos; }

// The planted delay per operation: 5% of the 1-worker writer's recorded time per operation.
double planted_delay_ns(const Recorded& r) {
  for (const auto& [cell, metrics] : r) {
    if (is_writer(cell) && workers_of(cell) == 1) {
      return 1e9 / median(metrics.at("throughput_ops_per_s")) * 0.05 / 0.95;
    }
  }
  return 0;
}

// What the planted delay does to one run's metric in `cell` (see the head of this file).
double planted(const std::string& cell, const std::string& metric, double value, double d,
               double cell_throughput) {
  if (d == 0) return value;
  if (metric == "throughput_ops_per_s") {
    const double t = workers_of(cell) * 1e9 / cell_throughput;  // one worker's time per op
    return value * t / (t + d);
  }
  return value + d;  // p50_ns, p99_ns, cpu_ns_per_op: the busy wait is inside each operation
}

struct Trial {
  std::size_t cells = 0, flagged_cells = 0;
  bool writer_found = false;
};

Trial trial(const Recorded& r, std::size_t reps, double d, SplitMix64& rng) {
  CompareSide base, cand;
  base.dir = "base";
  cand.dir = "candidate";
  base.valid = cand.valid = true;
  base.matrix = cand.matrix = nightly_matrix();
  base.host.cpu_model = cand.host.cpu_model = "recorded";
  base.host.cpus_usable = cand.host.cpus_usable = "2";
  base.workload_binaries = cand.workload_binaries = {"recorded jbench-sqlite-worker"};
  // Each side is the nightly's sessions, each of its share of the repetitions, as the nightly
  // runs them; compare then takes each session's median as one observation.
  const auto sessions = static_cast<std::size_t>(nightly_default("sessions"));
  const std::size_t per_session = (reps + sessions - 1) / sessions;
  for (std::size_t k = 0; k < sessions; ++k) {
    base.bundles.push_back("base/s" + std::to_string(k + 1));
    cand.bundles.push_back("candidate/s" + std::to_string(k + 1));
  }
  for (const auto& [cell, metrics] : r) {
    SideCell& b = base.cells[cell];
    SideCell& c = cand.cells[cell];
    b.runs = b.ok = c.runs = c.ok = per_session * sessions;
    const double throughput = median(metrics.at("throughput_ops_per_s"));
    for (const auto& [metric, values] : metrics) {
      for (std::size_t i = 0; i < per_session * sessions; ++i) {
        b.metrics[metric].push_back(values[rng.below(values.size())]);
        c.metrics[metric].push_back(
            planted(cell, metric, values[rng.below(values.size())], d, throughput));
        b.sessions[metric].push_back(i / per_session);
        c.sessions[metric].push_back(i / per_session);
      }
    }
  }
  CompareOptions o;  // the nightly's: its threshold, FDR 0.05
  o.threshold = nightly_default("threshold");
  o.resamples = 300;
  Comparison cmp = compare_bundles(base, cand, o);
  Trial t;
  t.cells = r.size();
  std::set<std::string> flagged;
  for (const MetricRow& row : cmp.rows) {
    if (row.verdict == Verdict::regressed || row.verdict == Verdict::improved)
      flagged.insert(row.cell);
    if (row.verdict == Verdict::regressed && is_writer(row.cell)) t.writer_found = true;
  }
  t.flagged_cells = flagged.size();
  return t;
}

TEST(NightlyPower, the_same_build_twice_flags_at_most_five_percent_of_the_nightly_cells) {
  const Recorded r = recorded();
  ASSERT_EQ(r.size(), 4u) << "the fixture holds the nightly's four cells";
  const std::size_t reps = nightly_matrix().repetitions;
  SplitMix64 rng(11);
  std::size_t cells = 0, flagged = 0;
  for (int i = 0; i < 200; ++i) {
    Trial t = trial(r, reps, 0, rng);
    cells += t.cells;
    flagged += t.flagged_cells;
  }
  EXPECT_LE(static_cast<double>(flagged), 0.05 * static_cast<double>(cells))
      << flagged << " of " << cells << " cells";
  RecordProperty("aa_flagged_cells", std::to_string(flagged) + " of " + std::to_string(cells));
}

TEST(NightlyPower, a_planted_five_percent_writer_slowdown_is_found_with_ninety_percent_power) {
  const Recorded r = recorded();
  ASSERT_EQ(r.size(), 4u);
  const std::size_t reps = nightly_matrix().repetitions;
  const double d = planted_delay_ns(r);
  ASSERT_GT(d, 0);
  SplitMix64 rng(12);
  const int trials = 200;
  int found = 0;
  for (int i = 0; i < trials; ++i) found += trial(r, reps, d, rng).writer_found;
  EXPECT_GE(found, 0.9 * trials) << found << " of " << trials << " at " << reps << " repetitions, "
                                 << d << " ns planted";
  RecordProperty("power", std::to_string(found) + " of " + std::to_string(trials));
  RecordProperty("repetitions", std::to_string(reps));
}

}  // namespace
}  // namespace jbench::compare
