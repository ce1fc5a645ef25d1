// A worker spawned held before exec: it exists (its pid and start time are readable) but runs
// none of its program until released; released, it execs and speaks; never released, it ends
// with 127 and never runs the program. Real /bin/sh children.
#include <gtest/gtest.h>
#include <unistd.h>

#include <climits>
#include <filesystem>

#include "jbench/common/clock.h"
#include "jbench/proc/child_process.h"
#include "jbench/proc/proc_stat.h"
#include "temp_dir.h"

namespace jbench::proc {
namespace {

SpawnSpec held_shell(const std::string& script) {
  SpawnSpec s;
  s.executable = "/bin/sh";
  s.args = {"-c", script};
  s.hold_before_exec = true;
  return s;
}

std::string exe_of(pid_t pid) {
  std::error_code ec;
  return std::filesystem::read_symlink("/proc/" + std::to_string(pid) + "/exe", ec).string();
}

TEST(ChildProcessHold, AHeldChildRunsNothingOfItsProgramUntilReleased) {
  test::TempDir dir;
  const std::string mark = dir.path() + "/ran";
  auto s = ChildProcess::spawn(held_shell("touch " + mark + "; echo hello"));
  ASSERT_TRUE(s) << s.error().message;
  // Held: still the harness's image (this test binary), and the program has not run.
  EXPECT_EQ(exe_of((*s)->pid()), std::filesystem::read_symlink("/proc/self/exe").string());
  EXPECT_TRUE(read_proc_stat((*s)->pid()).has_value());
  EXPECT_FALSE(std::filesystem::exists(mark));
  const Status released = (*s)->release_exec();
  ASSERT_TRUE(released) << released.error().message;
  std::string line;
  // Safety net only: the shell answers within milliseconds.
  ASSERT_EQ((*s)->next_line(line, monotonic_ns() + 10'000'000'000ULL),
            ChildProcess::LineWait::line);
  EXPECT_EQ(line, "hello");
  EXPECT_TRUE(std::filesystem::exists(mark));
  const auto status = (*s)->reap_within(10'000);
  ASSERT_TRUE(status.has_value());
  EXPECT_EQ(status->code, 0);
}

TEST(ChildProcessHold, AChildNeverReleasedEndsWithoutRunningItsProgram) {
  test::TempDir dir;
  const std::string mark = dir.path() + "/ran";
  auto s = ChildProcess::spawn(held_shell("touch " + mark));
  ASSERT_TRUE(s) << s.error().message;
  const pid_t pid = (*s)->pid();
  s.value().reset();  // gives up on it: the hold's pipe closes, the child is killed and reaped
  EXPECT_FALSE(read_proc_stat(pid).has_value());
  EXPECT_FALSE(std::filesystem::exists(mark));
}

TEST(ChildProcessHold, ReleasingAChildThatWasNotHeldIsANoOp) {
  SpawnSpec s = held_shell("exit 0");
  s.hold_before_exec = false;
  auto spawned = ChildProcess::spawn(s);
  ASSERT_TRUE(spawned) << spawned.error().message;
  EXPECT_TRUE((*spawned)->release_exec());
  EXPECT_TRUE((*spawned)->reap_within(10'000).has_value());
}

}  // namespace
}  // namespace jbench::proc
