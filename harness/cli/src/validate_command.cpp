// `jbench validate BUNDLE [--json]`: every finding on stdout, the verdict as the exit code.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "jbench/cli/cli.h"
#include "jbench/validate/validate.h"

namespace jbench::cli {
namespace {

struct ValidateOptions {
  std::string bundle;
  bool json = false;
};

int run_validate(const ValidateOptions& o) {
  const ValidationReport report = validate_bundle(o.bundle);
  if (o.json) {
    std::cout << report_to_json(report).dump(2) << '\n';
  } else {
    std::cout << report_to_text(report);
  }
  if (report.unreadable) {
    std::cerr << "jbench: error: " << report.findings.front().message << '\n';
    return kExitUsage;
  }
  return report.valid() ? kExitOk : kExitCheckFailed;
}

}  // namespace

Action add_validate_command(CLI::App& app) {
  auto o = std::make_shared<ValidateOptions>();
  app.add_option("BUNDLE", o->bundle, "the bundle directory to check")->required();
  app.add_flag("--json", o->json, "print the findings as JSON (schema jbench.validate_report)");
  app.footer(
      "Checks everything, lists every finding (codes in docs/validate.md) and never writes into "
      "the bundle.\nExit codes: 0 valid, 1 invalid, 2 bad usage or a bundle that cannot be "
      "opened.");
  return [o] { return run_validate(*o); };
}

}  // namespace jbench::cli
