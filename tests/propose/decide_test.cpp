// The decision rule on hand-made comparison rows (pure), the sessions' order, and the proposal
// file: located errors, and a rule hash that changes with the rule and nothing else.
#include "jbench/proposal_rules/decide.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "jbench/matrix/proposal.h"
#include "jbench/proposal_rules/session_order.h"

namespace jbench::proposal_rules {
namespace {

constexpr const char* kCell = "w1.persistent.reader.small.baseline";

RowFigures row(const std::string& cell, const std::string& metric, bool higher, double ratio,
               double low, double high, double q) {
  RowFigures r;
  r.cell = cell;
  r.metric = metric;
  r.higher_is_better = higher;
  r.ratio = ratio;
  r.ci_low = low;
  r.ci_high = high;
  r.q = q;
  return r;
}

DecisionRule rule() {
  DecisionRule r;
  r.primary = "throughput_ops_per_s";
  r.improvement_at_least = 0.03;
  r.regression_at_most = 0.02;
  r.guard_metrics = {"throughput_ops_per_s", "p99_ns"};
  r.fdr = 0.05;
  return r;
}

std::vector<ProposalCounter> vm_steps_down() {
  ProposalCounter c;
  c.metric = "vm_steps_per_op";
  c.expect = CounterDirection::decrease;
  return {c};
}

TEST(ProposalDecision, a_clear_improvement_whose_counter_moved_is_accepted) {
  const std::vector<RowFigures> rows = {
      row(kCell, "throughput_ops_per_s", true, 1.08, 1.05, 1.11, 0.01),
      row(kCell, "vm_steps_per_op", false, 0.80, 0.79, 0.81, 0.01)};
  const Decision d = decide(rule(), vm_steps_down(), rows, {kCell});
  EXPECT_EQ(d.verdict, Verdict::accepted);
  EXPECT_FALSE(d.unexplained);
}

TEST(ProposalDecision, the_same_improvement_without_its_counter_is_unexplained) {
  const std::vector<RowFigures> rows = {
      row(kCell, "throughput_ops_per_s", true, 1.08, 1.05, 1.11, 0.01),
      row(kCell, "vm_steps_per_op", false, 1.0, 0.99, 1.01, 0.9)};
  const Decision d = decide(rule(), vm_steps_down(), rows, {kCell});
  EXPECT_EQ(d.verdict, Verdict::inconclusive);
  EXPECT_TRUE(d.unexplained);
}

TEST(ProposalDecision, a_counter_that_moved_against_the_prediction_is_named) {
  const std::vector<RowFigures> rows = {
      row(kCell, "throughput_ops_per_s", true, 1.08, 1.05, 1.11, 0.01),
      row(kCell, "vm_steps_per_op", false, 1.2, 1.1, 1.3, 0.01)};
  const Decision d = decide(rule(), vm_steps_down(), rows, {kCell});
  EXPECT_EQ(d.verdict, Verdict::inconclusive);
  ASSERT_EQ(d.cells.size(), 1u);
  ASSERT_EQ(d.cells[0].counters.size(), 1u);
  EXPECT_EQ(d.cells[0].counters[0].second, "against");
}

TEST(ProposalDecision, a_counter_measured_only_in_a_traced_cell_of_the_point_is_read_there) {
  const std::string light = "w1.persistent.reader.small.light";
  ProposalCounter fsyncs;
  fsyncs.metric = "fsyncs_per_op";
  const std::vector<RowFigures> rows = {
      row(kCell, "throughput_ops_per_s", true, 1.08, 1.05, 1.11, 0.01),
      row(light, "fsyncs_per_op", false, 0.5, 0.45, 0.55, 0.01),
      // Another point's counter is not this point's evidence.
      row("w2.persistent.reader.small.light", "fsyncs_per_op", false, 1.0, 0.9, 1.1, 0.9)};
  const Decision d = decide(rule(), {fsyncs}, rows, {kCell});
  EXPECT_EQ(d.verdict, Verdict::accepted);
}

TEST(ProposalDecision, an_interval_that_excludes_the_improvement_asked_for_is_rejected) {
  // A/A with enough sessions: the ratio is 1 and the interval stays below 1.03.
  const std::vector<RowFigures> rows = {
      row(kCell, "throughput_ops_per_s", true, 1.0, 0.99, 1.01, 0.8),
      row(kCell, "vm_steps_per_op", false, 1.0, 1.0, 1.0, 1.0)};
  const Decision d = decide(rule(), vm_steps_down(), rows, {kCell});
  EXPECT_EQ(d.verdict, Verdict::rejected);
}

TEST(ProposalDecision, a_wide_interval_is_not_enough_evidence_either_way) {
  const std::vector<RowFigures> rows = {
      row(kCell, "throughput_ops_per_s", true, 1.05, 0.95, 1.2, 0.3)};
  const Decision d = decide(rule(), vm_steps_down(), rows, {kCell});
  EXPECT_EQ(d.verdict, Verdict::inconclusive);
  EXPECT_FALSE(d.unexplained);
}

TEST(ProposalDecision, a_guarded_regression_in_any_cell_rejects_even_a_clear_gain) {
  const std::string other = "w2.persistent.reader.small.baseline";
  const std::vector<RowFigures> rows = {
      row(kCell, "throughput_ops_per_s", true, 1.08, 1.05, 1.11, 0.01),
      row(kCell, "vm_steps_per_op", false, 0.8, 0.79, 0.81, 0.01),
      // p99 is lower-is-better: a ratio of 1.10 is 10% worse.
      row(other, "p99_ns", false, 1.10, 1.05, 1.15, 0.01)};
  const Decision d = decide(rule(), vm_steps_down(), rows, {kCell});
  EXPECT_EQ(d.verdict, Verdict::rejected);
  ASSERT_FALSE(d.reasons.empty());
  EXPECT_NE(d.reasons[0].find("p99_ns"), std::string::npos) << d.reasons[0];
}

TEST(ProposalDecision, a_regression_within_the_allowed_bound_does_not_reject) {
  const std::vector<RowFigures> rows = {
      row(kCell, "throughput_ops_per_s", true, 1.08, 1.05, 1.11, 0.01),
      row(kCell, "vm_steps_per_op", false, 0.8, 0.79, 0.81, 0.01),
      row(kCell, "p99_ns", false, 1.015, 1.01, 1.02, 0.01)};
  EXPECT_EQ(decide(rule(), vm_steps_down(), rows, {kCell}).verdict, Verdict::accepted);
}

TEST(ProposalDecision, a_significant_gain_smaller_than_asked_is_not_accepted) {
  const std::vector<RowFigures> rows = {
      row(kCell, "throughput_ops_per_s", true, 1.02, 1.01, 1.04, 0.01),
      row(kCell, "vm_steps_per_op", false, 0.8, 0.79, 0.81, 0.01)};
  EXPECT_NE(decide(rule(), vm_steps_down(), rows, {kCell}).verdict, Verdict::accepted);
}

TEST(ProposalDecision, an_accepting_cell_without_the_primary_metric_decides_nothing) {
  const Decision d = decide(rule(), vm_steps_down(), {}, {kCell});
  EXPECT_EQ(d.verdict, Verdict::inconclusive);
  ASSERT_EQ(d.cells.size(), 1u);
  EXPECT_EQ(d.cells[0].primary, "not_measured");
}

TEST(ProposalDecision, lower_is_better_primaries_are_turned_to_their_better_direction) {
  DecisionRule r = rule();
  r.primary = "p50_ns";
  r.guard_metrics = {"p50_ns"};
  const std::vector<RowFigures> rows = {
      row(kCell, "p50_ns", false, 0.8, 0.75, 0.85, 0.01),
      row(kCell, "vm_steps_per_op", false, 0.8, 0.79, 0.81, 0.01)};
  const Decision d = decide(r, vm_steps_down(), rows, {kCell});
  EXPECT_EQ(d.verdict, Verdict::accepted);
  ASSERT_TRUE(d.cells[0].gain.has_value());
  EXPECT_NEAR(*d.cells[0].gain, 1.25, 1e-9);
}

TEST(SessionOrder, pairs_hold_one_session_of_each_side_and_the_seed_fixes_the_order) {
  const auto a = session_order(7, 16);
  ASSERT_EQ(a.size(), 32u);
  for (std::size_t i = 0; i < a.size(); i += 2) EXPECT_NE(a[i], a[i + 1]) << "pair " << i / 2;
  EXPECT_EQ(a, session_order(7, 16));
  // Over seeds, both sides go first: the order is drawn, not fixed.
  bool baseline_first = false, candidate_first = false;
  for (std::uint64_t seed = 0; seed < 8; ++seed) {
    const auto o = session_order(seed, 4);
    baseline_first |= std::find(o.begin(), o.end(), Side::baseline) == o.begin();
    candidate_first |= o.front() == Side::candidate;
  }
  EXPECT_TRUE(baseline_first);
  EXPECT_TRUE(candidate_first);
}

constexpr const char* kProposal = R"(version: 1
name: p
description: first
matrix: m.yaml
baseline: {params: {subquery_cache: "off"}, oracle: o.yaml}
candidate: {params: {subquery_cache: transaction}, oracle: o.yaml}
counters:
  - {metric: vm_steps_per_op, expect: decrease}
rule:
  primary: throughput_ops_per_s
  improvement_at_least: 0.03
  regression_at_most: 0.02
)";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  text.replace(text.find(from), from.size(), to);
  return text;
}

TEST(ProposalFile, the_rule_hash_changes_with_the_rule_and_the_counters_only) {
  const auto p = parse_proposal(kProposal, "p.yaml");
  ASSERT_TRUE(p.proposal) << (p.diagnostics.empty() ? "" : p.diagnostics[0].message);
  const std::string hash = rule_sha256(*p.proposal);
  const auto described = parse_proposal(replaced(kProposal, "first", "second"), "p.yaml");
  ASSERT_TRUE(described.proposal);
  EXPECT_EQ(rule_sha256(*described.proposal), hash);
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"0.03", "0.01"},
           {"decrease", "increase"},
           {"regression_at_most: 0.02", "regression_at_most: 0.5"}}) {
    const auto edited = parse_proposal(replaced(kProposal, from, to), "p.yaml");
    ASSERT_TRUE(edited.proposal) << from;
    EXPECT_NE(rule_sha256(*edited.proposal), hash) << from << " -> " << to;
  }
}

TEST(ProposalFile, errors_are_located_and_all_reported) {
  const std::string bad =
      replaced(replaced(kProposal, "improvement_at_least", "improvment_at_least"),
               "expect: decrease", "expect: down");
  const auto p = parse_proposal(bad, "p.yaml");
  ASSERT_FALSE(p.proposal);
  const std::string all = format_diagnostics(p.diagnostics);
  EXPECT_NE(all.find("p.yaml:8:"), std::string::npos) << all;  // the counter's expect
  EXPECT_NE(all.find("did you mean 'improvement_at_least'"), std::string::npos) << all;
  EXPECT_NE(all.find("missing required key 'improvement_at_least'"), std::string::npos) << all;
}

TEST(ProposalFile, a_proposal_without_counters_or_a_change_is_refused) {
  const auto no_counters = parse_proposal(
      replaced(kProposal, "  - {metric: vm_steps_per_op, expect: decrease}\n", ""), "p.yaml");
  EXPECT_FALSE(no_counters.proposal);
  std::string same = replaced(kProposal, "{params: {subquery_cache: \"off\"}, oracle: o.yaml}",
                              "{oracle: o.yaml}");
  same =
      replaced(same, "{params: {subquery_cache: transaction}, oracle: o.yaml}", "{oracle: o.yaml}");
  const auto unchanged = parse_proposal(same, "p.yaml");
  ASSERT_FALSE(unchanged.proposal);
  EXPECT_NE(format_diagnostics(unchanged.diagnostics).find("say what it changes"),
            std::string::npos);
}

TEST(ProposalFile, each_side_has_exactly_one_correctness_gate_an_oracle_or_a_command) {
  const auto gated = parse_proposal(
      replaced(kProposal, "{params: {subquery_cache: transaction}, oracle: o.yaml}",
               "{params: {subquery_cache: transaction}, gate: {command: [./t.sh, -q], "
               "timeout_s: 30}, command: [bin/engine, --fast]}"),
      "dir/p.yaml");
  ASSERT_TRUE(gated.proposal) << format_diagnostics(gated.diagnostics);
  const ProposalSide& c = gated.proposal->candidate;
  EXPECT_TRUE(c.oracle.empty());
  ASSERT_EQ(c.gate_command.size(), 2u);
  // Programs with a '/' are the proposal's folder's; their arguments are left as written.
  EXPECT_TRUE(c.gate_command[0].ends_with("/dir/t.sh")) << c.gate_command[0];
  EXPECT_EQ(c.gate_command[1], "-q");
  EXPECT_EQ(c.gate_timeout_s, 30u);
  EXPECT_TRUE(c.command[0].ends_with("/dir/bin/engine")) << c.command[0];

  const auto both = parse_proposal(replaced(kProposal, "oracle: o.yaml}\ncounters",
                                            "oracle: o.yaml, gate: {command: [t]}}\ncounters"),
                                   "p.yaml");
  ASSERT_FALSE(both.proposal);
  EXPECT_NE(format_diagnostics(both.diagnostics).find("p.yaml:6:"), std::string::npos)
      << format_diagnostics(both.diagnostics);
  EXPECT_NE(format_diagnostics(both.diagnostics).find("not both"), std::string::npos);

  const auto none =
      parse_proposal(replaced(kProposal, ", oracle: o.yaml}\ncounters", "}\ncounters"), "p.yaml");
  ASSERT_FALSE(none.proposal);
  EXPECT_NE(format_diagnostics(none.diagnostics).find("candidate: name its correctness gate"),
            std::string::npos)
      << format_diagnostics(none.diagnostics);
  const auto empty = parse_proposal(
      replaced(kProposal, "oracle: o.yaml}\ncounters", "gate: {command: []}}\ncounters"), "p.yaml");
  ASSERT_FALSE(empty.proposal);
  EXPECT_NE(format_diagnostics(empty.diagnostics).find("candidate.gate.command"), std::string::npos)
      << format_diagnostics(empty.diagnostics);
}

}  // namespace
}  // namespace jbench::proposal_rules
