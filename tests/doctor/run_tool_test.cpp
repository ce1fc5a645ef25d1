// The tool runner's guarantees: output captured and bounded, the deadline kills the whole group,
// nothing is left behind, an exec failure is a value.
#include "run_tool.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <thread>

#include "fake_host.h"

namespace jbench::doctor {
namespace {

bool process_running(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) return false;
  std::string line;
  std::getline(stat, line);
  const auto paren = line.rfind(')');
  return paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] != 'Z';
}

TEST(DoctorRunTool, CapturesOutputAndExitCode) {
  test::FakeTools tools;
  const auto tool = tools.script("t", "echo out; echo err >&2; exit 3\n");
  const ToolRun run = run_tool({tool}, tools.path(), 5000);
  ASSERT_TRUE(run.started) << run.error;
  EXPECT_EQ(run.exit_code, 3);
  EXPECT_EQ(run.out, "out\n");
  EXPECT_EQ(run.err, "err\n");
}

TEST(DoctorRunTool, BoundsWhatItKeeps) {
  test::FakeTools tools;
  const auto tool = tools.script("t", "/usr/bin/head -c 100000 /dev/zero\n");
  const ToolRun run = run_tool({tool}, tools.path(), 5000, 1000);
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out.size(), 1000u);
}

TEST(DoctorRunTool, DeadlineKillsTheGroupAndLeavesNothingBehind) {
  test::FakeTools tools;
  const std::string pidfile = tools.path() + "/sleeper.pid";
  const auto tool = tools.script("t", "/bin/sleep 30 &\necho $! > " + pidfile + "\nwait\n");
  const auto started = std::chrono::steady_clock::now();
  const ToolRun run = run_tool({tool}, tools.path(), 300);
  const auto took = std::chrono::steady_clock::now() - started;
  EXPECT_TRUE(run.timed_out);
  EXPECT_TRUE(run.signaled);
  EXPECT_LT(took, std::chrono::seconds(5));
  pid_t sleeper = 0;
  std::ifstream(pidfile) >> sleeper;
  ASSERT_GT(sleeper, 0);
  // Reparented to a reaper, it may linger as a zombie for a moment, but must not be running.
  for (int i = 0; i < 100 && process_running(sleeper); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_FALSE(process_running(sleeper));
}

TEST(DoctorRunTool, ExecFailureIsAValue) {
  const ToolRun run = run_tool({"/nonexistent/tool"}, "/usr/bin", 1000);
  EXPECT_FALSE(run.started);
  EXPECT_NE(run.error.find("No such file"), std::string::npos) << run.error;
  const ToolRun relative = run_tool({"tool"}, "/usr/bin", 1000);
  EXPECT_FALSE(relative.started);
}

TEST(DoctorRunTool, ChildSeesTheGivenPath) {
  test::FakeTools tools;
  const auto tool = tools.script("t", "echo \"$PATH\"\n");
  const ToolRun run = run_tool({tool}, "/only/this", 5000);
  EXPECT_EQ(run.out, "/only/this\n");
}

}  // namespace
}  // namespace jbench::doctor
