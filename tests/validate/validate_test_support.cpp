#include "validate_test_support.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace jbench::test {

std::string valid_fixture() {
  return std::string(JBENCH_SOURCE_DIR) + "/tests/fixtures/bundles/valid";
}

void copy_valid_fixture(const std::string& dest) {
  // run_process executes a path without a PATH search.
  const auto r = run_process({"/bin/cp", "-a", valid_fixture(), dest}, {});
  if (r.signaled || r.exit_code != 0) {
    std::fprintf(stderr, "cp -a failed (%d): %s\n", r.exit_code, r.err.c_str());
    std::abort();
  }
}

ProcessResult run_validate_text(const std::string& bundle) {
  ProcessOptions options;
  options.timeout = std::chrono::seconds(20);
  return run_process({JBENCH_BINARY, "validate", bundle}, options);
}

ValidateResult run_validate_json(const std::string& bundle) {
  ProcessOptions options;
  options.timeout = std::chrono::seconds(20);
  ValidateResult r;
  r.process = run_process({JBENCH_BINARY, "validate", bundle, "--json"}, options);
  r.report = nlohmann::json::parse(r.process.out, nullptr, false);
  if (r.report.is_object() && r.report.contains("findings")) {
    for (const auto& f : r.report["findings"]) r.codes.insert(f.value("code", ""));
  }
  return r;
}

}  // namespace jbench::test
