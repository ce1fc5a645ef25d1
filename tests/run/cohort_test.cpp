// A worker the cohort cannot read from /proc/<pid>/stat: on a system with /proc it is gone, and
// the refusal says so; on one without (a build for macOS or FreeBSD, docs/platforms.md) the
// refusal names the missing /proc, not the worker.
#include "cohort.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace jbench::run {
namespace {

TEST(CohortRefusal, a_worker_that_ended_is_gone_before_it_was_admitted) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) _exit(0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);  // reaped: its pid names no process now
  Cohort cohort("boot");
  const Status refused = cohort.admit_spawned(0, child);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message,
            "worker 0 (pid " + std::to_string(child) + ") is gone before it was admitted");
  EXPECT_TRUE(cohort.members().empty());
}

TEST(CohortRefusal, on_a_system_without_proc_the_reason_is_the_missing_proc) {
  char name[] = "/tmp/jbench-no-proc-XXXXXX";
  ASSERT_NE(::mkdtemp(name), nullptr);
  const std::string root = name;
  const std::string why = unreadable_worker(3, 4242, "before registration", root);
  EXPECT_NE(why.find("worker 3 (pid 4242) cannot be admitted: this system has no "
                     "/proc/<pid>/stat"),
            std::string::npos)
      << why;
  EXPECT_EQ(why.find("gone"), std::string::npos) << why;
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace jbench::run
