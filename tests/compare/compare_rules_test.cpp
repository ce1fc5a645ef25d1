// The comparison's rules on hand-made sides: verdicts from the evidence (regressed, improved,
// same, unknown with the repetitions that would settle it), refusals naming what differs (a
// host, a build unless allowed), and the outcome's exit codes.
#include <gtest/gtest.h>

#include "hand_made_side.h"
#include "jbench/compare/compare.h"
#include "jbench/compare/metrics.h"

namespace jbench::compare {
namespace {

CompareSide side(const std::string& dir, std::vector<double> throughput) {
  return test::hand_made_side(dir, "throughput_ops_per_s", std::move(throughput));
}

const MetricRow& throughput_row(const Comparison& c) {
  for (const MetricRow& r : c.rows) {
    if (r.metric == "throughput_ops_per_s") return r;
  }
  static const MetricRow none;
  ADD_FAILURE() << "no throughput row";
  return none;
}

TEST(CompareRules, a_clear_drop_is_a_regression_and_a_clear_rise_an_improvement) {
  auto base = side("a", {100, 101, 99, 100.5, 99.5, 100.2});
  auto slow = side("b", {90, 91, 89, 90.5, 89.5, 90.2});
  Comparison c = compare_bundles(base, slow, {});
  EXPECT_EQ(throughput_row(c).verdict, Verdict::regressed);
  EXPECT_EQ(c.outcome, CompareOutcome::regression);
  EXPECT_EQ(exit_code_of(c.outcome), 1);
  Comparison up = compare_bundles(slow, base, {});
  EXPECT_EQ(throughput_row(up).verdict, Verdict::improved);
  EXPECT_EQ(exit_code_of(up.outcome), 0);
}

TEST(CompareRules, tight_equal_samples_are_the_same_and_noisy_ones_unknown) {
  auto a = side("a", {100, 100.2, 99.8, 100.1, 99.9, 100, 100.05, 99.95});
  auto b = side("b", {100.1, 99.9, 100, 100.2, 99.8, 100.05, 99.95, 100});
  Comparison same = compare_bundles(a, b, {});
  EXPECT_EQ(throughput_row(same).verdict, Verdict::same);
  EXPECT_EQ(exit_code_of(same.outcome), 0);

  auto noisy_a = side("a", {100, 130, 80, 110, 95});
  auto noisy_b = side("b", {105, 70, 120, 90, 115});
  Comparison unknown = compare_bundles(noisy_a, noisy_b, {});
  const MetricRow& r = throughput_row(unknown);
  EXPECT_EQ(r.verdict, Verdict::unknown);
  ASSERT_TRUE(r.repetitions_needed);
  EXPECT_GT(*r.repetitions_needed, 5u);
  EXPECT_NE(r.reason.find("run more repetitions"), std::string::npos) << r.reason;
  EXPECT_EQ(unknown.outcome, CompareOutcome::no_verdict);
  EXPECT_EQ(exit_code_of(unknown.outcome), 4);
}

TEST(CompareRules, a_real_shift_smaller_than_the_threshold_is_no_verdict_and_says_so) {
  // 2% slower, tightly measured: the test sees it, but the comparison was asked about ±3%.
  std::vector<double> a, b;
  for (int i = 0; i < 30; ++i) {
    a.push_back(100 + (i % 5) * 0.4);
    b.push_back(97.2 + (i % 5) * 0.4 + (i % 2) * 0.1);
  }
  Comparison c = compare_bundles(side("a", a), side("b", b), {});
  const MetricRow& r = throughput_row(c);
  EXPECT_LT(r.q, 0.05);
  EXPECT_EQ(r.verdict, Verdict::unknown) << r.reason;
  EXPECT_NE(r.reason.find("smaller than"), std::string::npos) << r.reason;
  // Asked about ±1%, the same runs are a regression.
  CompareOptions strict;
  strict.threshold = 0.01;
  EXPECT_EQ(throughput_row(compare_bundles(side("a", a), side("b", b), strict)).verdict,
            Verdict::regressed);
}

const MetricRow* row_of(const Comparison& c, const std::string& metric) {
  for (const MetricRow& r : c.rows) {
    if (r.metric == metric) return &r;
  }
  return nullptr;
}

TEST(CompareRules, a_counter_that_never_moved_is_the_same_and_one_from_zero_has_no_ratio) {
  auto a = side("a", {100, 101, 99, 100, 100});
  auto b = side("b", {100, 100, 101, 99, 100});
  a.cells["w1.d.baseline"].metrics["fsyncs_per_op"] = {0, 0, 0, 0, 0};
  b.cells["w1.d.baseline"].metrics["fsyncs_per_op"] = {0, 0, 0, 0, 0};
  Comparison still = compare_bundles(a, b, {});
  const MetricRow* r = row_of(still, "fsyncs_per_op");
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(r->none_observed);
  EXPECT_EQ(r->verdict, Verdict::same);
  EXPECT_NE(r->reason.find("no event observed"), std::string::npos);

  b.cells["w1.d.baseline"].metrics["fsyncs_per_op"] = {1, 1.01, 0.99, 1, 1};
  Comparison from_zero = compare_bundles(a, b, {});
  r = row_of(from_zero, "fsyncs_per_op");
  ASSERT_NE(r, nullptr);
  EXPECT_FALSE(r->ratio);
  EXPECT_FALSE(r->ci_low);
  // Five runs a side at most reach p = 0.008: with the throughput row in the family it is a
  // discovery at FDR 0.05, in the bad direction for a lower-is-better counter.
  EXPECT_EQ(r->verdict, Verdict::regressed) << r->reason;
  EXPECT_NE(r->reason.find("rank test alone"), std::string::npos);
}

TEST(CompareRules, every_cell_moving_the_same_way_is_noted_as_possibly_the_host) {
  std::vector<double> base, slow;
  for (int i = 0; i < 12; ++i) {
    base.push_back(100 + (i % 4));
    slow.push_back(88 + (i % 4));
  }
  auto a = side("a", base);
  auto b = side("b", slow);
  for (const char* cell : {"w1.e.baseline", "w1.f.baseline"}) {
    a.cells[cell] = a.cells["w1.d.baseline"];
    b.cells[cell] = b.cells["w1.d.baseline"];
  }
  Comparison all = compare_bundles(a, b, {});
  EXPECT_EQ(all.outcome, CompareOutcome::regression);  // the verdicts stand
  EXPECT_NE(all.common_shift.find("every one of the 3 cells moved the same way"), std::string::npos)
      << all.common_shift;
  // One cell unchanged: a change of some cells, not of everything; no note.
  b.cells["w1.f.baseline"] = a.cells["w1.f.baseline"];
  Comparison some = compare_bundles(a, b, {});
  EXPECT_EQ(some.outcome, CompareOutcome::regression);
  EXPECT_TRUE(some.common_shift.empty()) << some.common_shift;
}

// Rows come in the base bundle's cell order (the matrix's axis order, baseline first), not the
// cell ids' alphabetical order; cells its order does not list follow, alphabetically.
TEST(CompareRules, rows_follow_the_base_bundles_cell_order) {
  std::vector<double> runs = {100, 101, 102, 103, 104, 105};
  auto a = side("a", runs);
  auto b = side("b", runs);
  for (const char* cell : {"w1.d.full", "w2.d.baseline", "w10.d.baseline"}) {
    a.cells[cell] = a.cells["w1.d.baseline"];
    b.cells[cell] = b.cells["w1.d.baseline"];
  }
  a.cell_order = {"w1.d.baseline", "w1.d.full", "w2.d.baseline"};
  const Comparison c = compare_bundles(a, b, {});
  std::vector<std::string> cells;
  for (const MetricRow& r : c.rows) {
    if (cells.empty() || cells.back() != r.cell) cells.push_back(r.cell);
  }
  EXPECT_EQ(cells, (std::vector<std::string>{"w1.d.baseline", "w1.d.full", "w2.d.baseline",
                                             "w10.d.baseline"}));
}

// A side of `sessions` sessions of `runs` each: every run of session k is `level + offsets[k]`
// plus a small spread, as runs of one session share its state of the host.
CompareSide sessions_side(const std::string& dir, double level, const std::vector<double>& offsets,
                          std::size_t runs) {
  std::vector<double> values;
  std::vector<std::size_t> ids;
  for (std::size_t k = 0; k < offsets.size(); ++k) {
    for (std::size_t r = 0; r < runs; ++r) {
      values.push_back(level + offsets[k] + 0.1 * static_cast<double>(r));
      ids.push_back(k);
    }
  }
  CompareSide s = side(dir, values);
  for (std::size_t k = 0; k < offsets.size(); ++k)
    s.bundles.push_back(dir + "/s" + std::to_string(k));
  s.cells["w1.d.baseline"].sessions["throughput_ops_per_s"] = ids;
  return s;
}

// Pooled sessions are compared session by session. Two sides of the same level whose sessions
// each sit apart by a few percent — the host's state, shared by a session's runs — are no
// evidence of a change, though run by run they would be; a shift every session shows is.
TEST(CompareRules, pooled_sessions_are_the_unit_so_a_session_shift_is_not_evidence) {
  // The base's sessions happen to sit lower than the candidate's, mostly: the same ±6 spread.
  auto base = sessions_side("a", 100, {-6, 2, -4, -2}, 8);
  auto cand = sessions_side("b", 100, {4, -2, 6, 2}, 8);
  Comparison pooled = compare_bundles(base, cand, {});
  const MetricRow& row = throughput_row(pooled);
  EXPECT_TRUE(row.by_session);
  EXPECT_EQ(row.units_base, 4u);
  EXPECT_EQ(row.n_base, 32u);
  EXPECT_GT(row.p,
            0.05);  // the session medians interleave: 94, 96, 98, 102 against 98, 102, 104, 106
  EXPECT_NE(row.verdict, Verdict::improved);

  // The same values as single bundles, every run counted as independent: called a change.
  Comparison runs =
      compare_bundles(side("a", base.cells["w1.d.baseline"].metrics.begin()->second),
                      side("b", cand.cells["w1.d.baseline"].metrics.begin()->second), {});
  EXPECT_FALSE(throughput_row(runs).by_session);
  EXPECT_LT(throughput_row(runs).p, 1e-6);
  EXPECT_EQ(throughput_row(runs).verdict, Verdict::improved);

  // A drop of a fifth in each of eight sessions a side is a regression, session by session.
  auto eight = sessions_side("a", 100, {-2, 1, 0, 2, -1, 1, -2, 0}, 4);
  auto slower = sessions_side("b", 80, {-2, 1, 0, 2, -1, 1, -2, 0}, 4);
  const Comparison dropped = compare_bundles(eight, slower, {});
  const MetricRow& drop = throughput_row(dropped);
  EXPECT_TRUE(drop.by_session);
  EXPECT_EQ(drop.verdict, Verdict::regressed) << drop.reason;
  EXPECT_LT(*drop.ci_high, 0.9);

  // Two sessions a side are too few for a verdict, however many runs they hold.
  auto two = sessions_side("a", 100, {0, 1}, 20);
  auto two_slow = sessions_side("b", 50, {0, 1}, 20);
  const Comparison too_few = compare_bundles(two, two_slow, {});
  const MetricRow& few = throughput_row(too_few);
  EXPECT_EQ(few.verdict, Verdict::unknown);
  EXPECT_NE(few.reason.find("2 + 2 sessions with this metric"), std::string::npos) << few.reason;
}

TEST(CompareRules, two_repetitions_are_too_few_for_a_verdict) {
  Comparison c = compare_bundles(side("a", {100, 101}), side("b", {50, 51}), {});
  EXPECT_EQ(throughput_row(c).verdict, Verdict::unknown);
  EXPECT_NE(throughput_row(c).reason.find("at least 3"), std::string::npos);
}

TEST(CompareRules, another_host_or_build_is_refused_unless_the_build_is_allowed) {
  auto a = side("a", {100, 101, 99});
  auto other_host = side("b", {100, 101, 99});
  other_host.host.cpu_model = "Y";
  other_host.host.memory_total_mib = 2000;
  Comparison host = compare_bundles(a, other_host, {});
  EXPECT_EQ(host.outcome, CompareOutcome::refused);
  EXPECT_EQ(exit_code_of(host.outcome), 2);
  ASSERT_EQ(host.refusals.size(), 2u);
  EXPECT_EQ(host.refusals[0], "host: host.cpu_model: X -> Y");
  EXPECT_NE(host.refusals[1].find("host.memory_total_mib"), std::string::npos);

  auto other_build = side("b", {100, 101, 99});
  other_build.workload_binaries = {"def /bin/worker"};
  Comparison build = compare_bundles(a, other_build, {});
  EXPECT_EQ(build.outcome, CompareOutcome::refused);
  EXPECT_EQ(build.build_differences.size(), 2u);
  CompareOptions allow;
  allow.allow_different_build = true;
  Comparison allowed = compare_bundles(a, other_build, allow);
  EXPECT_NE(allowed.outcome, CompareOutcome::refused);
  EXPECT_EQ(allowed.build_differences.size(), 2u);  // still shown
}

TEST(CompareRules, the_fdr_is_controlled_across_cells) {
  // 40 cells with no change at all and 2 with a real one: only the 2 are flagged.
  auto base = side("a", {});
  auto cand = side("b", {});
  base.cells.clear();
  cand.cells.clear();
  for (int i = 0; i < 42; ++i) {
    std::string cell = "c" + std::to_string(i);
    std::vector<double> b = {100, 101, 99, 100.5, 99.5, 100.2};
    std::vector<double> c = b;
    if (i < 2) {
      for (double& x : c) x *= 0.8;
    } else {
      std::rotate(c.begin(), c.begin() + i % 6, c.end());  // same values, another order
    }
    base.cells[cell].metrics["throughput_ops_per_s"] = b;
    cand.cells[cell].metrics["throughput_ops_per_s"] = c;
  }
  Comparison c = compare_bundles(base, cand, {});
  std::size_t regressed = 0;
  for (const MetricRow& r : c.rows) regressed += r.verdict == Verdict::regressed;
  EXPECT_EQ(regressed, 2u);
}

// Calls by name: a run that made no call of a name is a measured zero in that call's row, on
// either side, once the comparison knows every call either side made.
TEST(CompareRules, a_call_only_the_candidate_makes_is_compared_against_measured_zeros) {
  auto base = test::hand_made_side("a", kTracedSyscallsPerOp, {3, 3, 3, 3, 3, 3});
  auto cand = test::hand_made_side("b", kTracedSyscallsPerOp, {4, 4, 4, 4, 4, 4});
  SideCell& b = base.cells.begin()->second;
  b.calls.assign(6, {{"syscall:pwrite64_per_op", 3.0}});
  b.calls[2] = {{"syscall:pwrite64_per_op", 2.0}, {"syscall:pread64_per_op", 1.0}};
  SideCell& c = cand.cells.begin()->second;
  c.calls.assign(6, {{"syscall:pwrite64_per_op", 3.0}, {"syscall:fdatasync_per_op", 1.0}});
  complete_call_counts(base, call_count_metrics(base));
  EXPECT_EQ(b.metrics["syscall:pread64_per_op"], (std::vector<double>{0, 0, 1, 0, 0, 0}));
  EXPECT_EQ(b.metrics["syscall:pwrite64_per_op"], (std::vector<double>{3, 3, 2, 3, 3, 3}));
  EXPECT_FALSE(b.metrics.contains("syscall:fdatasync_per_op"));  // not known to this side

  const Comparison cmp = compare_bundles(base, cand, {});
  const MetricRow* fdatasync = nullptr;
  for (const MetricRow& r : cmp.rows) {
    if (r.metric == "syscall:fdatasync_per_op") fdatasync = &r;
  }
  ASSERT_NE(fdatasync, nullptr);
  EXPECT_EQ(fdatasync->n_base, 6u);
  EXPECT_EQ(fdatasync->n_candidate, 6u);
  EXPECT_EQ(fdatasync->verdict, Verdict::regressed);
  // A cell without a clean syscall collector (no traced_syscalls_per_op) gets no call rows.
  auto untraced = test::hand_made_side("c", "throughput_ops_per_s", {1, 2, 3});
  complete_call_counts(untraced, {"syscall:fdatasync_per_op"});
  EXPECT_FALSE(untraced.cells.begin()->second.metrics.contains("syscall:fdatasync_per_op"));
}

// Counts of two different counters (callgrind on one side, the processor's on the other) are
// not paired: the row has no test and says which counted each side.
TEST(CompareRules, counts_of_different_counters_are_never_compared) {
  auto base = test::hand_made_side("a", "instructions_per_op", {1000, 1100, 1200});
  auto cand = test::hand_made_side("b", "instructions_per_op", {1000, 1100, 1200});
  for (auto* side : {&base, &cand}) {
    side->cells.begin()->second.seeds["instructions_per_op"] = {"1", "2", "3"};
  }
  base.cells.begin()->second.counter_sources = {"callgrind"};
  cand.cells.begin()->second.counter_sources = {"callgrind"};
  const auto row_of = [](const Comparison& c) {
    for (const MetricRow& r : c.rows) {
      if (r.metric == "instructions_per_op") return r;
    }
    ADD_FAILURE() << "no instructions_per_op row";
    return MetricRow();
  };
  EXPECT_EQ(row_of(compare_bundles(base, cand, {})).verdict, Verdict::same);

  cand.cells.begin()->second.counter_sources = {"perf"};
  const MetricRow mixed = row_of(compare_bundles(base, cand, {}));
  EXPECT_EQ(mixed.verdict, Verdict::unknown);
  EXPECT_EQ(mixed.n_base, 0u);
  EXPECT_NE(mixed.reason.find("callgrind on the base and perf on the candidate"), std::string::npos)
      << mixed.reason;
}

}  // namespace
}  // namespace jbench::compare
