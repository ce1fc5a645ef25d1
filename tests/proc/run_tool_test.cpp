// The tool runner's guarantees: output captured and bounded, the deadline kills the whole group,
// nothing is left behind, an exec failure is a value. Real short /bin/sh scripts, no mocks.
#include "jbench/proc/run_tool.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "temp_dir.h"

namespace jbench::proc {
namespace {

// A directory of executable /bin/sh scripts, to use as PATH.
class Tools {
 public:
  const std::string& path() const { return dir_.path(); }
  std::string script(const std::string& name, const std::string& body) const {
    const std::string full = dir_.write(name, "#!/bin/sh\n" + body);
    ::chmod(full.c_str(), 0755);
    return full;
  }

 private:
  test::TempDir dir_;
};

ToolRun run_tool(const std::vector<std::string>& argv, const std::string& path_env, int timeout_ms,
                 std::size_t max_output = 16 * 1024) {
  return run_to_completion(argv, path_env, timeout_ms, max_output);
}

bool process_running(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) return false;
  std::string line;
  std::getline(stat, line);
  const auto paren = line.rfind(')');
  return paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] != 'Z';
}

TEST(ProcRunTool, CapturesOutputAndExitCode) {
  Tools tools;
  const auto tool = tools.script("t", "echo out; echo err >&2; exit 3\n");
  const ToolRun run = run_tool({tool}, tools.path(), 5000);
  ASSERT_TRUE(run.started) << run.error;
  EXPECT_EQ(run.exit_code, 3);
  EXPECT_EQ(run.out, "out\n");
  EXPECT_EQ(run.err, "err\n");
}

TEST(ProcRunTool, BoundsWhatItKeeps) {
  Tools tools;
  const auto tool = tools.script("t", "/usr/bin/head -c 100000 /dev/zero\n");
  const ToolRun run = run_tool({tool}, tools.path(), 5000, 1000);
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out.size(), 1000u);
}

TEST(ProcRunTool, DeadlineKillsTheGroupAndLeavesNothingBehind) {
  Tools tools;
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

TEST(ProcRunTool, ExecFailureIsAValue) {
  const ToolRun run = run_tool({"/nonexistent/tool"}, "/usr/bin", 1000);
  EXPECT_FALSE(run.started);
  EXPECT_NE(run.error.find("No such file"), std::string::npos) << run.error;
  const ToolRun relative = run_tool({"tool"}, "/usr/bin", 1000);
  EXPECT_FALSE(relative.started);
}

TEST(ProcRunTool, ChildSeesTheGivenPath) {
  Tools tools;
  const auto tool = tools.script("t", "echo \"$PATH\"\n");
  const ToolRun run = run_tool({tool}, "/only/this", 5000);
  EXPECT_EQ(run.out, "/only/this\n");
}

TEST(ProcRunTool, StdinIsDevNull) {
  const ToolRun run =
      run_to_completion({"/bin/sh", "-c", "readlink /proc/self/fd/0"}, "/usr/bin:/bin", 5000);
  ASSERT_TRUE(run.started) << run.error;
  EXPECT_EQ(run.out, "/dev/null\n");
}

TEST(ProcRunTool, NoDescriptorOfOursReachesTheChild) {
  // A descriptor opened without close-on-exec, as a library or a careless caller might.
  const int leaked = fcntl(STDOUT_FILENO, F_DUPFD, 50);
  ASSERT_GE(leaked, 50);
  const std::string probe =
      "[ -e /proc/self/fd/" + std::to_string(leaked) + " ] && echo leaked || echo clean";
  const ToolRun run = run_to_completion({"/bin/sh", "-c", probe}, "/usr/bin:/bin", 5000);
  ::close(leaked);
  EXPECT_EQ(run.out, "clean\n");
}

TEST(ProcRunTool, SigpipeIsAtItsDefaultInTheChild) {
  struct sigaction ignore {};
  struct sigaction previous {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &previous);  // as the harness does while workers run
  const ToolRun run =
      run_to_completion({"/bin/grep", "SigIgn", "/proc/self/status"}, "/usr/bin:/bin", 5000);
  sigaction(SIGPIPE, &previous, nullptr);
  ASSERT_EQ(run.exit_code, 0) << run.error << run.err;
  const std::uint64_t mask = std::stoull(run.out.substr(run.out.find(':') + 1), nullptr, 16);
  EXPECT_EQ(mask & (1ULL << (SIGPIPE - 1)), 0u) << run.out;
}

TEST(ProcRunTool, WithoutAPathTheChildKeepsOurs) {
  const char* ours = std::getenv("PATH");
  ASSERT_NE(ours, nullptr);
  const ToolRun run = run_to_completion({"/bin/sh", "-c", "echo \"$PATH\""}, std::nullopt, 5000);
  EXPECT_EQ(run.out, std::string(ours) + "\n");
}

TEST(ProcRunTool, AToolThatNeverStopsWritingEndsAtTheDeadline) {
  const auto started = std::chrono::steady_clock::now();
  const ToolRun run = run_to_completion({"/usr/bin/yes"}, "/usr/bin:/bin", 300, 1000);
  const auto took = std::chrono::steady_clock::now() - started;
  EXPECT_TRUE(run.timed_out);
  EXPECT_EQ(run.out.size(), 1000u);
  EXPECT_LT(took, std::chrono::seconds(5));
}

}  // namespace
}  // namespace jbench::proc
