// Runs the built `jbench` executable for a test.
#pragma once

#include <string>
#include <vector>

#include "build_paths.h"
#include "run_process.h"

namespace jbench::test {

// <build>/bin/jbench; the checkout is source_dir() (build_paths.h).
std::string jbench_binary();

// Runs `jbench args...` in `cwd` (default: the source tree) with a 60 s deadline.
ProcessResult run_jbench(const std::vector<std::string>& args, const std::string& cwd = "");

std::string read_file(const std::string& path);

}  // namespace jbench::test
