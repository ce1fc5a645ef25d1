// The posix configuration (-DJBENCH_PLATFORM=posix, docs/platforms.md), built here as it would be
// built on macOS, FreeBSD or illumos: a second build tree of this source where every Linux-only
// header stops the compiler, and whose jbench, SQLite worker and trace bridge must call no
// Linux-only function (the target jbench-posix-check). The tree is kept between runs (under this
// build's tests/platform/), so only its first build costs.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "run_process.h"
#include "second_tree.h"

namespace jbench::test {
namespace {

const std::string kTree = JBENCH_POSIX_TREE;

std::string cache_value(const std::string& name) {
  std::ifstream in(kTree + "/CMakeCache.txt");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(name + ":", 0) == 0) return line.substr(line.find('=') + 1);
  }
  return "(not in the cache)";
}

TEST(PosixBuild, jbench_the_worker_and_the_bridge_build_without_linux_headers_or_calls) {
  const std::string why = build_second_tree(JBENCH_CMAKE, JBENCH_POSIX_CONFIGURE_ARGS, kTree,
                                            {"jbench-posix-check"}, "posix");
  ASSERT_TRUE(why.empty()) << why;
  // What the tree was: the posix configuration, without the compiled BPF tracer or the tests.
  EXPECT_EQ(cache_value("JBENCH_PLATFORM"), "posix");
  EXPECT_EQ(cache_value("JBENCH_BUILD_TESTS"), "OFF");
  // The check ran over the three (it is what jbench-posix-check does, and it fails otherwise).
  ProcessOptions options;
  options.timeout = std::chrono::seconds(300);
  const auto again =
      run_process({JBENCH_CMAKE, "--build", kTree, "--target", "jbench-posix-check"}, options);
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
  EXPECT_NE(again.out.find("the posix configuration's 3 files call no Linux-only function"),
            std::string::npos)
      << again.out;
  // Its jbench runs here, and says what it was built without, and why.
  const auto doctor = run_process({kTree + "/bin/jbench", "doctor", "--no-attach"});
  ASSERT_EQ(doctor.exit_code, 0) << doctor.out << doctor.err;
  EXPECT_NE(doctor.out.find("compiled_tracer       not available: not_installed — this jbench is "
                            "built for a system other than Linux"),
            std::string::npos)
      << doctor.out;
  EXPECT_NE(doctor.out.find("instructions_counter  not available: unsupported_os"),
            std::string::npos)
      << doctor.out;
  EXPECT_NE(doctor.out.find("this build is not for Linux"), std::string::npos) << doctor.out;
}

}  // namespace
}  // namespace jbench::test
