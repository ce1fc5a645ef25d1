// Runs the built `jbench` executable for a test.
#pragma once

#include <string>
#include <vector>

#include "run_process.h"

namespace jbench::test {

// Paths baked in at build time.
std::string jbench_binary();
std::string source_dir();

// Runs `jbench args...` in `cwd` (default: the source tree) with a 60 s deadline.
ProcessResult run_jbench(const std::vector<std::string>& args, const std::string& cwd = "");

std::string read_file(const std::string& path);

}  // namespace jbench::test
