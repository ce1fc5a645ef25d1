// `jbench validate BUNDLE|ARCHIVE [--json]`: every finding on stdout, the verdict as the exit
// code. A regular file is taken for an archive made by `jbench archive` (validate_archive.h).
#include <sys/stat.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "jbench/cli/cli.h"
#include "jbench/validate/validate.h"
#include "validate_archive.h"

namespace jbench::cli {
namespace {

struct ValidateOptions {
  std::string bundle;
  bool json = false;
};

int run_validate(const ValidateOptions& o) {
  struct stat st {};
  const bool is_file = ::stat(o.bundle.c_str(), &st) == 0 && S_ISREG(st.st_mode);
  const ValidationReport report = is_file ? validate_archive(o.bundle) : validate_bundle(o.bundle);
  if (o.json) {
    std::cout << report_to_json(report).dump(2) << '\n';
  } else {
    std::cout << report_to_text(report);
  }
  if (report.unreadable) {
    std::cerr << "jbench: error: " << report.findings.front().message << '\n';
    return kExitUsage;
  }
  // Unproven is a check that failed too: the matrix asked for correctness evidence.
  return report.valid() && report.proven() ? kExitOk : kExitCheckFailed;
}

}  // namespace

Action add_validate_command(CLI::App& app) {
  auto o = std::make_shared<ValidateOptions>();
  app.add_option("BUNDLE", o->bundle,
                 "the bundle directory to check, or an archive of one (`jbench archive`)")
      ->required();
  app.add_flag("--json", o->json, "print the findings as JSON (schema jbench.validate_report)");
  app.footer(
      "Checks everything, lists every finding (codes in docs/validate.md) and never writes into "
      "the bundle. An archive is extracted safely into a private temporary directory, removed "
      "afterwards; a refused entry is a finding (codes in docs/archive.md).\nExit codes: 0 valid, "
      "1 invalid, 2 bad usage, a bundle that cannot be opened or a file that is not an "
      "archive.");
  return [o] { return run_validate(*o); };
}

}  // namespace jbench::cli
