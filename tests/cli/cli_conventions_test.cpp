// The command-line conventions every subcommand follows: --help on stdout with exit 0, usage
// errors on stderr with exit 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "jbench_binary.h"
#include "temp_dir.h"

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

// A word jbench does not know is an error that names it and the nearest valid names — also when
// --help follows it, which would otherwise print help and exit 0 (a misspelt command in a script
// passing silently). A value that begins with '-' is not taken for an option.
TEST(CliConventions, an_unknown_command_or_option_is_named_with_the_nearest_valid_ones) {
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  for (const Case& c : std::vector<Case>{
           {{"rnu", "matrices/sqlite.yaml"}, "unknown command 'rnu' (did you mean 'run'?)"},
           {{"nosuch", "--help"}, "unknown command 'nosuch' (one of: plan, run, validate"},
           {{"run", "--repetitons", "3", "matrices/sqlite.yaml"},
            "unknown option '--repetitons' for 'jbench run' (did you mean '--repetitions'?)"},
           {{"run", "--nosuch", "--help"}, "unknown option '--nosuch' for 'jbench run' (one of:"},
           {{"--verison"}, "unknown option '--verison' for jbench (did you mean '--version'?)"},
           {{"report", "b", "--jsno"},
            "unknown option '--jsno' for 'jbench report' (did you mean '--json'?)"},
           // Checked by the command's own executable, which jbench started in its place.
           {{"compare", "a", "b", "--jsno"},
            "unknown option '--jsno' for 'jbench compare' (did you mean '--json'?)"}}) {
    const auto r = run_jbench(c.args);
    EXPECT_EQ(r.exit_code, 2) << ::testing::PrintToString(c.args);
    EXPECT_EQ(r.out, "") << ::testing::PrintToString(c.args);
    EXPECT_NE(r.err.find("jbench: error: " + c.says), std::string::npos)
        << ::testing::PrintToString(c.args) << "\n"
        << r.err;
  }
  // Known words pass through to the command as before: help, and a value beginning with '-'.
  EXPECT_EQ(run_jbench({"run", "--help"}).exit_code, 0);
  const auto negative = run_jbench({"plan", "matrices/sqlite.yaml", "--host-cores", "-1"});
  EXPECT_EQ(negative.exit_code, 2);
  EXPECT_EQ(negative.err.find("unknown option"), std::string::npos) << negative.err;
}

// The commands `jbench --help` lists, read from its Subcommands section.
std::vector<std::string> listed_commands() {
  std::istringstream help(run_jbench({"--help"}).out);
  std::vector<std::string> names;
  bool in_list = false;
  for (std::string line; std::getline(help, line);) {
    if (line == "Subcommands:")
      in_list = true;
    else if (in_list && line.empty())
      break;
    else if (in_list)
      names.push_back(line.substr(2, line.find(' ', 2) - 2));
  }
  return names;
}

// Some commands are executables of their own beside jbench (jbench-compare, ...); each still
// answers to `jbench NAME`, with its own help and its own exit code.
TEST(CliConventions, every_listed_command_answers_to_jbench_name) {
  const auto names = listed_commands();
  ASSERT_GE(names.size(), 15u);
  for (const auto& name : names) {
    const auto r = run_jbench({name, "--help"});
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.err;
    EXPECT_NE(r.out.find("Usage: jbench " + name + " [OPTIONS]"), std::string::npos) << r.out;
  }
  const auto merged = run_jbench({"merge"});  // its own usage error, passed through
  EXPECT_EQ(merged.exit_code, 2);
  EXPECT_NE(merged.err.find("jbench: error: "), std::string::npos) << merged.err;
}

// A jbench whose folder lacks a command's executable says which file is missing and how to build
// it, exit 2, instead of failing to start it without a word.
TEST(CliConventions, a_command_not_built_names_its_missing_executable) {
  const TempDir dir;
  const std::string lone = dir.path() + "/jbench";
  std::filesystem::copy_file(jbench_binary(), lone);
  const auto r = run_process({lone, "merge", "--help"}, {.cwd = dir.path()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("jbench: error: 'jbench merge' is not built here: " + dir.path() +
                       "/jbench-merge is missing. Build it with `bash ci/build.sh jbench-merge`"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(run_process({lone, "plan", "--help"}, {.cwd = dir.path()}).exit_code, 0);
}

}  // namespace
}  // namespace jbench::test
