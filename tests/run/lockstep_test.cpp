// Two sessions meeting before each measure phase (lockstep.h): a party waits for the other's
// mark, not for a clock; one that never comes breaks the lockstep once, with the reason, and one
// that has ended keeps no one waiting. With either watch of the folder (folder_watch.h).
#include "lockstep.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "jbench/common/clock.h"

namespace jbench::run {

// The watch's name in the test's name (found by gtest beside WatchKind).
void PrintTo(WatchKind kind, std::ostream* out) {
  *out << (kind == WatchKind::inotify ? "inotify" : "recheck");
}

namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kSafetyNet = 60'000'000'000ULL;  // far above any real wait

struct Folder {
  std::string path;
  Folder() {
    char name[] = "/tmp/jbench-lockstep-XXXXXX";
    path = ::mkdtemp(name) ? name : "";
  }
  ~Folder() { fs::remove_all(path); }
};

// Each test with Linux's inotify and with the recheck of the systems without it.
class LockstepByWatch : public ::testing::TestWithParam<WatchKind> {};
INSTANTIATE_TEST_SUITE_P(Watches, LockstepByWatch,
                         ::testing::Values(WatchKind::inotify, WatchKind::recheck),
                         [](const auto& param) {
                           return param.param == WatchKind::inotify ? "inotify" : "recheck";
                         });

TEST_P(LockstepByWatch, two_parties_meet_at_each_run) {
  Folder dir;
  ASSERT_FALSE(dir.path.empty());
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // The other session: meets runs 1 and 2, then ends (its destructor marks the end).
    int code = 0;
    {
      auto joined = Lockstep::join(dir.path, 2, GetParam());
      if (!joined) _exit(3);
      Lockstep other = std::move(joined).value();
      for (std::uint64_t k = 1; k <= 2; ++k) {
        if (!other.meet(k, monotonic_ns() + kSafetyNet)["met"].get<bool>()) code = 1;
      }
    }
    _exit(code);
  }
  auto joined = Lockstep::join(dir.path, 2, GetParam());
  ASSERT_TRUE(joined) << joined.error().message;
  Lockstep me = std::move(joined).value();
  for (std::uint64_t k = 1; k <= 2; ++k) {
    const auto met = me.meet(k, monotonic_ns() + kSafetyNet);
    EXPECT_EQ(met["met"], true) << met.dump();
    EXPECT_EQ(met["run"], k);
  }
  // The other has ended: run 3 finds no one to wait for.
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_EQ(me.meet(3, monotonic_ns() + kSafetyNet)["met"], true);
}

TEST_P(LockstepByWatch, a_party_that_never_comes_breaks_the_lockstep_once_with_the_reason) {
  Folder dir;
  auto joined = Lockstep::join(dir.path, 2, GetParam());
  ASSERT_TRUE(joined) << joined.error().message;
  Lockstep me = std::move(joined).value();
  const auto first = me.meet(1, monotonic_ns());  // no time to wait: no one has come
  EXPECT_EQ(first["met"], false);
  EXPECT_NE(first["reason"].get<std::string>().find("measures alone from run 1 on"),
            std::string::npos)
      << first.dump();
  // From then on it never waits, whatever the deadline.
  const auto later = me.meet(2, monotonic_ns() + kSafetyNet);
  EXPECT_EQ(later["met"], false);
  EXPECT_EQ(later["reason"], first["reason"]);
}

TEST_P(LockstepByWatch, a_run_passed_without_measuring_keeps_no_one_waiting) {
  Folder dir;
  auto joined = Lockstep::join(dir.path, 2, GetParam());
  ASSERT_TRUE(joined) << joined.error().message;
  Lockstep me = std::move(joined).value();
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto theirs = Lockstep::join(dir.path, 2, GetParam());
    if (!theirs) _exit(3);
    Lockstep other = std::move(theirs).value();
    other.pass(1);  // its run 1 failed before measuring
    // It waits for run 2 as a session does; the parent meets it there.
    _exit(other.meet(2, monotonic_ns() + kSafetyNet)["met"].get<bool>() ? 0 : 1);
  }
  EXPECT_EQ(me.meet(1, monotonic_ns() + kSafetyNet)["met"], true);
  EXPECT_EQ(me.meet(2, monotonic_ns() + kSafetyNet)["met"], true);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}

TEST(Lockstep, a_folder_that_cannot_be_made_is_an_error) {
  const auto r = Lockstep::join("/proc/self/no-such/lockstep", 2);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("lockstep folder"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace jbench::run
