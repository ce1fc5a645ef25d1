// Running the real `jbench validate` on copies of the checked-in fixtures.
#pragma once

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "run_process.h"

namespace jbench::test {

std::string valid_fixture();  // tests/fixtures/bundles/valid in the source tree

// `cp -a valid_fixture() dest`: the copy a user would make.
void copy_valid_fixture(const std::string& dest);

struct ValidateResult {
  ProcessResult process;
  nlohmann::json report;        // parsed --json output (discarded when not JSON)
  std::set<std::string> codes;  // the distinct finding codes
};
ValidateResult run_validate_json(const std::string& bundle);
ProcessResult run_validate_text(const std::string& bundle);

}  // namespace jbench::test
