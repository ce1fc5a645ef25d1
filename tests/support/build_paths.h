// Where a test finds the build's programs and the checkout's files, found at run time: a test
// executable lives in <build>/bin, and <build>/CMakeCache.txt names the checkout. Paths compiled
// into the tests would make every test object differ between two clones of the same sources, so
// a second clone could not reuse a single compiled test (ccache).
//
// The test targets' path macros expand to these (cmake/JbenchTargets.cmake,
// jbench_test_paths), so a test reads them as it would read a path:
//   run_process({JBENCH_BINARY, "validate", dir});          // <build>/bin/jbench
//   std::ifstream in(JBENCH_SOURCE_DIR + "/matrices/x.yaml");
#pragma once

#include <string>
#include <string_view>

namespace jbench::test {

std::string build_dir();   // the build tree this test executable belongs to
std::string source_dir();  // the checkout that build tree was configured from
// build_dir() + "/" + relative, or build_dir() itself for ""; the same for source_path.
std::string build_path(std::string_view relative);
std::string source_path(std::string_view relative);

}  // namespace jbench::test
