// The command-line conventions every subcommand follows: --help on stdout with exit 0, usage
// errors on stderr with exit 2.
#include <gtest/gtest.h>

#include "jbench_binary.h"

namespace jbench::test {
namespace {

TEST(CliConventions, help_goes_to_stdout_and_exits_0) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"--help"}, {"plan", "--help"}}) {
    const auto r = run_jbench(args);
    EXPECT_EQ(r.exit_code, 0) << args.back();
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << r.out;
    EXPECT_EQ(r.err, "");
  }
  EXPECT_NE(run_jbench({"--help"}).out.find("Exit codes: 0 success"), std::string::npos);
}

TEST(CliConventions, version_prints_the_version) {
  const auto r = run_jbench({"--version"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "0.1.0\n");
}

TEST(CliConventions, usage_errors_exit_2_on_stderr) {
  for (const auto& args :
       std::vector<std::vector<std::string>>{{},
                                             {"frobnicate"},
                                             {"plan"},
                                             {"plan", "matrices/sqlite.yaml", "--bogus"},
                                             {"plan", "matrices/sqlite.yaml", "--host-cores", "0"},
                                             {"plan", "matrices/sqlite.yaml", "--only"}}) {
    const auto r = run_jbench(args);
    EXPECT_EQ(r.exit_code, 2) << ::testing::PrintToString(args);
    EXPECT_EQ(r.out, "") << ::testing::PrintToString(args);
    EXPECT_NE(r.err.find("jbench: error: "), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace jbench::test
