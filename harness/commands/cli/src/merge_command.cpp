// `jbench merge OUT SHARD...`: the bundles of `jbench run --shard K/N` joined into one bundle
// that reads as the whole session (docs/distributed.md). Refused, with every finding, unless the
// shards are one plan's and together hold every planned run exactly once.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "commands.h"
#include "jbench/cli/cli.h"
#include "jbench/merge/merge_shards.h"
#include "jbench/seal/evidence_bundle.h"

namespace jbench::cli {
namespace {

int exit_code_of(merge::MergeResult result) {
  switch (result) {
    case merge::MergeResult::merged:
      return kExitOk;
    case merge::MergeResult::refused:
    case merge::MergeResult::invalid:
      return kExitCheckFailed;
    case merge::MergeResult::bad_request:
      return kExitUsage;
    case merge::MergeResult::not_written:
      return kExitInternal;
  }
  return kExitInternal;
}

int run_merge(const merge::MergeRequest& request) {
  const merge::MergeOutcome m = merge::merge_shards(request);
  const bool merged = m.result == merge::MergeResult::merged;
  for (const auto& f : m.findings) std::cerr << f.code << "  " << f.message << '\n';
  if (!m.message.empty()) std::cerr << "jbench: error: " << m.message << '\n';
  std::cerr << not_written_lines(m.not_written);
  if (m.bundle.empty()) {
    if (!m.findings.empty()) {
      std::cerr << fmt::format("jbench: merge refused ({} finding(s) above): nothing was written\n",
                               m.findings.size());
    }
    return exit_code_of(m.result);
  }
  std::cerr << fmt::format("merged {} shard(s) from {} host(s): {} runs in {}{}\n",
                           request.shards.size(), m.hosts, m.runs, m.bundle,
                           merged ? "" : " (INVALID: see validation.json)");
  if (merged) {
    std::cerr << fmt::format("next: jbench report {}\n      jbench validate {}\n", m.bundle,
                             m.bundle);
  }
  std::cout << m.bundle << '\n';
  return exit_code_of(m.result);
}

}  // namespace

Action add_merge_command(CLI::App& app) {
  auto request = std::make_shared<merge::MergeRequest>();
  app.add_option("OUT", request->out, "the merged bundle to write (never overwritten)")->required();
  app.add_option("SHARD", request->shards, "the shard bundles (`jbench run --shard K/N`), all N")
      ->required();
  app.footer(
      "Every shard must carry its validator's verdict and match its SHA256SUMS (one that does not "
      "is "
      "validated in full, to say why), then the shards are checked: the same matrix, seed, "
      "filters, overrides and N, "
      "the same jbench and worker executables, hosts of one class, datasets of the same content, "
      "and together every planned run exactly once, each from the shard that owns it. A finding "
      "names the shard and the runs. The merged bundle keeps each run as its shard wrote it, "
      "records the shard and host of every run and every shard's own documents under shards/, "
      "and is validated, checksummed and renamed into place in one step.\n"
      "Exit codes: 0 merged and valid, 1 refused or invalid, 2 bad usage (OUT exists), 3 the "
      "bundle could not be written. See docs/distributed.md.");
  return [request] { return run_merge(*request); };
}

}  // namespace jbench::cli
