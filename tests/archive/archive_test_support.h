// Shared by the archive tests: the checked-in valid bundle and running the real jbench.
#pragma once

#include <string>
#include <vector>

#include "run_process.h"

namespace jbench::test {

inline std::string valid_bundle() {
  return std::string(JBENCH_SOURCE_DIR) + "/tests/fixtures/bundles/valid";
}

// `cp -a valid_bundle() dest`, aborting if the copy fails (a broken fixture, not a finding).
void copy_valid_bundle(const std::string& dest);

// The jbench binary with these arguments, a 20 s deadline, TMPDIR set when tmpdir is given.
ProcessResult jbench(const std::vector<std::string>& args, const std::string& tmpdir = "");

}  // namespace jbench::test
