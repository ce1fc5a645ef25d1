// `jbench report BUNDLE [--json]`: the observer-overhead report (docs/report.md).
#include <iostream>
#include <memory>

#include "commands.h"
#include "jbench/cli/cli.h"
#include "jbench/report/bundle_runs.h"
#include "jbench/report/overhead.h"

namespace jbench::cli {
namespace {

struct ReportOptions {
  std::string bundle;
  bool json = false;
};

int run_report(const ReportOptions& o) {
  const auto runs = report::read_bundle_runs(o.bundle);
  if (!runs.error.empty()) {
    std::cerr << "jbench: error: " << runs.error << '\n';
    return kExitUsage;
  }
  const auto overhead = report::compute_overhead(runs.runs);
  if (o.json) {
    auto j = report::overhead_to_json(overhead);
    j["bundle_status"] = runs.bundle_status;
    std::cout << j.dump(2) << '\n';
  } else {
    if (runs.bundle_status != "complete") {
      std::cout << "note: the bundle's status is '" << runs.bundle_status
                << "': figures come from its successful runs only\n\n";
    }
    std::cout << report::overhead_to_text(overhead);
  }
  return kExitOk;
}

}  // namespace

Action add_report_command(CLI::App& app) {
  auto o = std::make_shared<ReportOptions>();
  app.add_option("BUNDLE", o->bundle, "the bundle directory")->required();
  app.add_flag("--json", o->json, "print the report as JSON (schema jbench.overhead_report)");
  app.footer(
      "For each cell, each trace mode against the baseline of the same block: the median ratio "
      "of baseline to traced throughput, its 95% bootstrap interval, the number of pairs and "
      "the A/B order; then every comparison between cells that is smaller than an observer's "
      "own cost.\nExit codes: 0 printed, 2 the bundle cannot be read.");
  return [o] { return run_report(*o); };
}

}  // namespace jbench::cli
