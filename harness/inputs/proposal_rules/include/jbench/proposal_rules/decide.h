// The verdict of a proposal (docs/proposal.md, "The decision"): its declared rule applied to the
// comparison of the baseline's and the candidate's sessions. Pure: the same rows give the same
// verdict, which is how `jbench validate` re-derives an evidence bundle's verdict from the
// comparison it holds.
//
//   Decision d = decide(proposal.rule, proposal.counters, rows, accept_cells);
//   d.verdict;   // accepted, rejected or inconclusive, with every reason
//
// For each metric the rows are turned to the metric's better direction: g is how many times
// better the candidate is (the ratio for a higher-is-better metric, its inverse otherwise), with
// its interval [g_low, g_high].
// - An accepting cell *clears* when q <= fdr, g_low > 1 and g >= 1 + improvement_at_least; it
//   *falls short* when g_high < 1 + improvement_at_least (the interval excludes the improvement
//   asked for); otherwise it is *open* (not enough evidence either way).
// - A guarded metric *regresses* in a cell when q <= fdr, g_high < 1 and 1/g > 1 +
//   regression_at_most.
// - A counter is read in the accepting cell, or, where that cell's trace mode does not measure it,
//   in another cell of the same point (a light run beside the untraced one). It *moved* when q <=
//   fdr and its interval lies wholly on the predicted side of 1 - by_at_least (1 + by_at_least for
//   an increase); it moved *against* the prediction when q <= fdr and the interval lies wholly on
//   the other side of 1.
// The verdict: rejected if any guarded metric regresses or any accepting cell falls short;
// accepted if every accepting cell clears and every counter moved as predicted in each of them;
// inconclusive otherwise — including a speed-up whose counters did not move (flagged
// `unexplained`), and any accepting cell without the primary metric.
#pragma once

#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "jbench/matrix/proposal.h"

namespace jbench::proposal_rules {

// One cell × metric of a comparison, the figures the decision reads (compare.h's MetricRow, or a
// row of its JSON document).
struct RowFigures {
  std::string cell;
  std::string metric;
  bool higher_is_better = true;
  std::optional<double> ratio, ci_low, ci_high;  // candidate / base
  double q = 1;
  bool none_observed = false;
};

// A compare_report document's rows (`rows[]`); rows it cannot read are skipped.
std::vector<RowFigures> rows_from_json(const nlohmann::json& compare_report);

enum class Verdict { accepted, rejected, inconclusive };
const char* to_string(Verdict v);

struct CellDecision {
  std::string cell;
  // The primary metric in an accepting cell: "clears", "falls_short", "open", "not_measured".
  std::string primary;
  std::optional<double> gain, gain_low, gain_high;  // g and its interval
  std::vector<std::string> regressions;             // guarded metrics that regressed here
  // Per counter: "moved", "not_moved", "against", "not_measured" (accepting cells only).
  std::vector<std::pair<std::string, std::string>> counters;
  bool accepting = false;
};

struct Decision {
  Verdict verdict = Verdict::inconclusive;
  bool unexplained = false;          // the primary cleared but a counter did not move as predicted
  std::vector<std::string> reasons;  // sentences, the deciding one first
  std::vector<CellDecision> cells;
};

// `accept_cells`: the cells (comparison cell names) where the rule asks for the improvement;
// every other cell is only guarded.
Decision decide(const DecisionRule& rule, const std::vector<ProposalCounter>& counters,
                const std::vector<RowFigures>& rows, const std::set<std::string>& accept_cells);

// A decision reached before any timing: the candidate failed its oracle pass (rejected) or the
// baseline did (inconclusive: nothing to compare with), or the timing could not be compared.
Decision decision_without_timing(Verdict verdict, std::string reason);

nlohmann::json decision_to_json(const Decision& d);

}  // namespace jbench::proposal_rules
