// The POSIX halves of the harness's system seam (docs/platforms.md), which a build for macOS,
// FreeBSD or illumos uses, run here against what Linux's own calls say: the CPUs a process may
// use, errno names, close-on-exec pipes and a child's descriptor hygiene.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "jbench/common/cpus.h"
#include "jbench/common/errno_name.h"
#include "jbench/proc/descriptors.h"

namespace jbench {
namespace {

TEST(PosixSeam, usable_cpus_counts_the_online_cpus_and_linux_its_affinity_mask) {
  const Result<unsigned> online = posix::usable_cpus();
  ASSERT_TRUE(online) << online.error().message;
  EXPECT_EQ(*online, static_cast<unsigned>(sysconf(_SC_NPROCESSORS_ONLN)));
  const Result<unsigned> mine = usable_cpus();
  ASSERT_TRUE(mine) << mine.error().message;
  EXPECT_GE(*mine, 1u);
  EXPECT_LE(*mine, *online);  // a mask never holds more CPUs than are online
}

TEST(PosixSeam, errno_names_are_glibcs_for_every_value_posix_names) {
  int named = 0;
  for (int e = 1; e < 200; ++e) {
    const char* posix_name = posix::errno_name(e);
    if (posix_name == nullptr) continue;
    ++named;
    ASSERT_NE(strerrorname_np(e), nullptr) << e;
    EXPECT_STREQ(posix_name, strerrorname_np(e)) << e;
    EXPECT_STREQ(errno_name(e), strerrorname_np(e)) << e;
  }
  EXPECT_GE(named, 70);  // the POSIX list, less the names that share a value here
  EXPECT_EQ(posix::errno_name(0), nullptr);
  EXPECT_EQ(posix::errno_name(100000), nullptr);
}

bool close_on_exec(int fd) { return (fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0; }
bool nonblocking(int fd) { return (fcntl(fd, F_GETFL) & O_NONBLOCK) != 0; }

TEST(PosixSeam, pipes_are_close_on_exec_and_nonblocking_when_asked) {
  for (const bool posix_way : {true, false}) {
    for (const int flags : {0, O_NONBLOCK}) {
      int fds[2] = {-1, -1};
      ASSERT_EQ(posix_way ? proc::posix::open_pipe(fds, flags) : proc::open_pipe(fds, flags), 0)
          << std::strerror(errno);
      for (const int fd : fds) {
        EXPECT_TRUE(close_on_exec(fd)) << posix_way;
        EXPECT_EQ(nonblocking(fd), flags == O_NONBLOCK) << posix_way;
      }
      ASSERT_EQ(write(fds[1], "x", 1), 1);
      char c = 0;
      EXPECT_EQ(read(fds[0], &c, 1), 1);
      EXPECT_EQ(c, 'x');
      close(fds[0]);
      close(fds[1]);
    }
  }
}

// In a forked child (as between fork and exec): marks or closes from `first`, then reports on
// `probe` descriptors through its exit status, bit i set when probe[i] is open (and
// close-on-exec when `want_cloexec`).
int child_report(bool posix_way, bool closing, int first, int keep, const int* probe, int n) {
  const pid_t child = fork();
  if (child == 0) {
    if (closing) {
      posix_way ? proc::posix::close_from_except(first, keep)
                : proc::close_from_except(first, keep);
    } else {
      posix_way ? proc::posix::close_on_exec_from(first) : proc::close_on_exec_from(first);
    }
    int bits = 0;
    for (int i = 0; i < n; ++i) {
      const int flags = fcntl(probe[i], F_GETFD);
      const bool ok = flags >= 0 && (closing || (flags & FD_CLOEXEC) != 0);
      if (ok) bits |= 1 << i;
    }
    _exit(bits);
  }
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

TEST(PosixSeam, a_child_marks_and_closes_its_descriptors_past_the_ones_it_keeps) {
  // Three plain descriptors (not close-on-exec), the middle one kept.
  const int a = open("/dev/null", O_RDONLY);
  const int b = open("/dev/null", O_RDONLY);
  const int c = open("/dev/null", O_RDONLY);
  ASSERT_TRUE(a > 2 && b > a && c > b);
  const int probe[] = {a, b, c};
  for (const bool posix_way : {true, false}) {
    // Marking from a: all three close-on-exec.
    EXPECT_EQ(child_report(posix_way, false, a, -1, probe, 3), 0b111) << posix_way;
    // Marking from b: a stays as it was (open, not close-on-exec: not counted).
    EXPECT_EQ(child_report(posix_way, false, b, -1, probe, 3), 0b110) << posix_way;
    // Closing from a but b: only b is open.
    EXPECT_EQ(child_report(posix_way, true, a, b, probe, 3), 0b010) << posix_way;
    // Closing from a with nothing kept: none is open.
    EXPECT_EQ(child_report(posix_way, true, a, -1, probe, 3), 0b000) << posix_way;
  }
  close(a);
  close(b);
  close(c);
}

TEST(PosixSeam, only_linux_can_tie_a_childs_life_to_its_parent) {
  EXPECT_FALSE(proc::posix::die_with_parent());
  const pid_t child = fork();
  if (child == 0) _exit(proc::die_with_parent() ? 0 : 1);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}

}  // namespace
}  // namespace jbench
