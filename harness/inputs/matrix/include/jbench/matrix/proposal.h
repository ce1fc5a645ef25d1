// A proposal file (docs/proposal.md): an optimization stated as evidence to be gathered — the
// matrix cells it is measured on, a baseline and a candidate (two sets of workload settings or
// two worker builds), the oracle pass each must pass first, the counters the change is meant to
// move, and the decision rule, declared before anything runs.
//
//   LoadedProposal p = parse_proposal(text, "proposals/subquery-cache.yaml");
//   if (!p.proposal) { std::cerr << format_diagnostics(p.diagnostics); return 2; }
//   std::string hash = rule_sha256(*p.proposal);   // recorded before the first run
//
// Parsing is pure and reads no other file: paths are kept as written, relative to the proposal's
// directory, so that a copy of the file inside an evidence bundle parses the same way and gives
// the same rule hash. Whether the matrix, the settings and the oracle matrices fit together is
// checked by whoever resolves the paths (jbench::propose).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/common/diagnostic.h"

namespace jbench {

// One workload setting of a side, as written: checked against the matrix's workload kind once
// the matrix is loaded.
struct ProposalParam {
  std::string key;
  std::string value;  // the scalar's text
  SourceLocation where;
};

// A side's correctness gate is one of two: an oracle matrix (jbench's own checks of the answers
// of an SQL engine, docs/oracle.md), or, for an engine the oracle cannot speak to, a command of
// the project's own that must exit 0 (its test suite, `jbench check-worker`, ...). Either runs
// before anything of that side is timed.
struct ProposalSide {
  std::vector<ProposalParam> params;      // settings that replace the matrix's
  std::optional<std::string> worker_dir;  // a folder holding jbench-<kind>-worker of this build
  std::vector<std::string> command;       // kind: process: this build's worker command
  std::string oracle;                     // the oracle matrix this side must pass, or
  std::vector<std::string> gate_command;  // the command that must exit 0 (gate: {command})
  std::uint32_t gate_timeout_s = 600;     // gate: {timeout_s}: past it the gate fails
  SourceLocation where;
  SourceLocation command_where;
  SourceLocation oracle_where;  // of `oracle:` or `gate:`, whichever is given
};

enum class CounterDirection { decrease, increase };

// A counter the change is meant to move, in the comparison's metric names (docs/compare.md).
struct ProposalCounter {
  std::string metric;
  CounterDirection expect = CounterDirection::decrease;
  double by_at_least = 0;  // relative; 0: any change the evidence shows
  SourceLocation where;
};

// The decision rule. Accept when the primary metric improves by at least `improvement_at_least`
// in every accepting cell, with the interval on the better side of 1, no guarded metric worsens
// beyond `regression_at_most` anywhere, and every counter moved as predicted.
struct DecisionRule {
  std::string primary = "throughput_ops_per_s";
  double improvement_at_least = 0.03;
  // Cells where the improvement is required, as axis -> values; empty: every measured cell.
  std::vector<std::pair<std::string, std::vector<std::string>>> accept_cells;
  double regression_at_most = 0.02;
  std::vector<std::string> guard_metrics;  // default: {primary}
  double fdr = 0.05;
  SourceLocation where;
};

struct Proposal {
  std::string file;         // as given
  std::string sha256;       // of the file's bytes
  std::string source_text;  // the file, verbatim
  std::string name;
  std::string description;
  std::string matrix;  // relative to the proposal's directory
  SourceLocation matrix_where;
  // --only of the matrix, as axis -> values; the cells the proposal is measured on.
  std::vector<std::pair<std::string, std::vector<std::string>>> only;
  SourceLocation only_where;
  std::uint32_t sessions = 16;  // per side, one repetition of every cell each
  SourceLocation sessions_where;
  std::optional<std::uint64_t> seed;  // the sessions' order; default: the matrix's seed
  ProposalSide baseline, candidate;
  std::vector<ProposalCounter> counters;
  DecisionRule rule;
};

struct LoadedProposal {
  std::optional<Proposal> proposal;  // set only when diagnostics is empty
  std::vector<Diagnostic> diagnostics;
};

LoadedProposal parse_proposal(std::string_view text, const std::string& file);
// Reads the file with the matrix files' refusals (size, encoding), then parse_proposal().
LoadedProposal load_proposal_file(const std::string& path);

// The decision as declared, in one canonical JSON text: the rule and the counters. Its hash is
// what an evidence bundle records before the first run; editing either changes it.
std::string canonical_rule_text(const Proposal& p);
std::string rule_sha256(const Proposal& p);

// "decrease" / "increase".
std::string_view to_string(CounterDirection d);

}  // namespace jbench
