// `jbench propose PROPOSAL [--out DIR] [--name NAME]`: an optimization proposal's evidence — the
// oracle gate, the baseline's and the candidate's sessions interleaved, their comparison and the
// declared rule's verdict — left as one validated bundle (docs/proposal.md).
#include <fmt/format.h>
#include <unistd.h>

#include <iostream>
#include <memory>

#include "commands.h"
#include "jbench/cli/cli.h"
#include "jbench/common/path_search.h"
#include "jbench/matrix/proposal.h"
#include "jbench/propose/propose.h"
#include "jbench/seal/evidence_bundle.h"

namespace jbench::cli {
namespace {

struct ProposeCli {
  std::string proposal;
  std::string out = "bundles";
  std::string name;
};

int run_propose(const ProposeCli& o) {
  LoadedProposal loaded = load_proposal_file(o.proposal);
  if (!loaded.proposal) {
    std::cerr << format_diagnostics(loaded.diagnostics);
    return kExitUsage;
  }
  std::vector<Diagnostic> diagnostics;
  auto resolved = propose::resolve_proposal(*loaded.proposal, diagnostics);
  if (!resolved) {
    std::cerr << format_diagnostics(diagnostics);
    return kExitUsage;
  }
  propose::ProposeOptions options;
  options.out_dir = o.out;
  options.name = o.name;
  options.ledger_worker = beside_self_executable("jbench-ledger-worker");
  for (const auto* side : {&resolved->baseline, &resolved->candidate}) {
    if (side->oracle && !side->oracle->ledgers.empty() &&
        ::access(options.ledger_worker.c_str(), X_OK) != 0) {
      std::cerr << "jbench: error: the oracle's ledgers need " << options.ledger_worker
                << ", which is not there: build it (bash ci/build.sh jbench-ledger-worker)\n";
      return kExitUsage;
    }
  }
  auto outcome = propose::run_proposal(*resolved, options, std::cerr);
  if (!outcome) {
    std::cerr << "jbench: error: the evidence bundle could not be written: "
              << outcome.error().message << "\n";
    return kExitInternal;
  }
  std::cout << outcome->report;
  std::cout << fmt::format("bundle: {}{}\n", outcome->bundle_path,
                           outcome->valid ? "" : " (INVALID: see validation.json)");
  std::cout << fmt::format("next: jbench validate {}; {}/report.txt is this report\n",
                           outcome->bundle_path, outcome->bundle_path);
  std::cerr << not_written_lines(outcome->not_written);
  if (!outcome->not_written.empty()) return kExitInternal;
  // Evidence that does not validate supports no verdict.
  if (!outcome->valid) return kExitNoVerdict;
  switch (outcome->verdict) {
    case proposal_rules::Verdict::accepted:
      return kExitOk;
    case proposal_rules::Verdict::rejected:
      return kExitCheckFailed;
    case proposal_rules::Verdict::inconclusive:
      return kExitNoVerdict;
  }
  return kExitNoVerdict;
}

}  // namespace

Action add_propose_command(CLI::App& app) {
  auto o = std::make_shared<ProposeCli>();
  app.add_option("PROPOSAL", o->proposal, "the proposal file (docs/proposal.md)")->required();
  app.add_option("--out", o->out, "where the evidence bundle goes")->default_val(o->out);
  app.add_option("--name", o->name,
                 "the evidence bundle's name (default: <proposal name>-<UTC time>)");
  app.footer(
      "Records the proposal and the hash of its decision rule, runs the candidate's and the "
      "baseline's oracle passes, then their sessions in seeded pairs, compares them session by "
      "session and applies the rule. Prints the evidence; the bundle keeps it.\nExit codes: 0 "
      "accepted, 1 rejected (a failing oracle pass, a regression, an improvement the evidence "
      "excludes), 2 bad input (file:line:col), 3 the bundle could not be written, 4 "
      "inconclusive (not enough evidence, an unexplained speed-up, an interrupted or invalid "
      "run).");
  return [o] { return run_propose(*o); };
}

}  // namespace jbench::cli
