// `jbench propose`: a proposal's evidence, gathered on this host and left as one bundle
// (docs/proposal.md).
//
//   auto resolved = resolve_proposal(*loaded.proposal, diagnostics);   // pure but for reading
//   if (!resolved) { print(diagnostics); return 2; }                   // the files it names
//   auto outcome = run_proposal(*resolved, options, std::cerr);
//   // the command line: accepted 0, rejected 1, inconclusive or invalid 4, not written 3
//
// What it does, in order: writes the proposal and the hash of its decision rule into the staged
// evidence bundle before anything runs; runs the candidate's oracle pass, then the baseline's,
// and stops at the first that fails (a failing candidate is rejected without any timing); runs
// the two sides' sessions in the proposal's seeded order of pairs, every session one repetition
// of every cell, the same plan (datasets, seeds, settings) on both sides but for what the
// proposal changes; compares the sessions session by session (jbench::compare); applies the
// rule (jbench::proposal_rules); validates and finalizes the bundle.
#pragma once

#include <iosfwd>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "jbench/common/diagnostic.h"
#include "jbench/common/result.h"
#include "jbench/matrix/matrix.h"
#include "jbench/matrix/oracle_matrix.h"
#include "jbench/matrix/proposal.h"
#include "jbench/plan/plan.h"
#include "jbench/proposal_rules/decide.h"

namespace jbench::propose {

struct ResolvedSide {
  Plan plan;               // the side's matrix with its settings and build, one repetition
  std::string worker_dir;  // absolute; empty: the workers beside jbench (run_session's default)
  // The correctness gate: an oracle pass, or (when `oracle` is empty) a command that must exit 0,
  // its program absolute, run in `gate_dir` (the proposal's folder).
  std::optional<OracleMatrix> oracle;
  std::vector<std::string> gate_command;
  std::string gate_dir;
  std::uint32_t gate_timeout_s = 600;
};

struct ResolvedProposal {
  Proposal proposal;
  std::string rule_sha256;
  std::uint64_t seed = 0;  // of the sessions' order
  ResolvedSide baseline, candidate;
  std::set<std::string> accept_cells;  // comparison cell names
  bool settings_differ = false;        // the sides change workload parameters
  bool builds_differ = false;          // the sides name worker builds
};

// Loads the matrix and the oracle matrices the proposal names (relative to its file), applies
// each side's settings, and checks that everything fits: known metrics, axis values the matrix
// has, worker folders that hold the workload's worker, a plan with runs. nullopt with located
// diagnostics otherwise.
std::optional<ResolvedProposal> resolve_proposal(const Proposal& p,
                                                 std::vector<Diagnostic>& diagnostics);

struct ProposeOptions {
  std::string out_dir = "bundles";
  std::string name;           // default: <proposal name>-<UTC time>
  std::string ledger_worker;  // jbench-ledger-worker, for the oracle passes' ledgers
};

struct ProposeOutcome {
  proposal_rules::Verdict verdict = proposal_rules::Verdict::inconclusive;
  std::string bundle_path;
  bool valid = false;
  std::vector<std::string> not_written;  // files that could not be written: the bundle is invalid
  std::string report;  // what the evidence says, for a terminal (also report.txt in the bundle)
};

// An Error only when the evidence bundle cannot be made or finalized.
Result<ProposeOutcome> run_proposal(const ResolvedProposal& r, const ProposeOptions& options,
                                    std::ostream& log);

}  // namespace jbench::propose
