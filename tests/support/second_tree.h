// A second build tree of this source, configured by the command jbench_second_tree wrote
// (cmake/JbenchTargets.cmake), then built for some targets: the tracing-free build, the posix
// configuration. The tree is kept between runs, so only its first build costs.
//
//   std::string why = build_second_tree(ARGS_FILE, TREE, {"jbench-sqlite-worker"}, "tracing-off");
//   ASSERT_TRUE(why.empty()) << why;   // the configure or build output when it failed
#pragma once

#include <string>
#include <vector>

namespace jbench::test {

// Configures (or refreshes) `tree` with the command in `args_file` (one argument per line), then
// builds `targets` there with `cmake_command`. "" or why not (with the tool's output). `label`
// names the tree in the line saying how long it took.
std::string build_second_tree(const std::string& cmake_command, const std::string& args_file,
                              const std::string& tree, const std::vector<std::string>& targets,
                              const std::string& label);

}  // namespace jbench::test
