#include "jbench/proc/descriptors.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>

#include "jbench/common/platform_choice.h"

#if JBENCH_PLATFORM_LINUX
#include <sys/prctl.h>
#endif

namespace jbench::proc {

namespace posix {
namespace {

// The highest descriptor number to visit: the soft limit on open descriptors (getrlimit is a
// plain system call, safe after fork), at most 1 << 20 so a limit of "unlimited" stays a loop.
int descriptor_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 1 << 20;
  return limit.rlim_cur > (1u << 20) ? 1 << 20 : static_cast<int>(limit.rlim_cur);
}

}  // namespace

int open_pipe(int fds[2], int status_flags) {
  if (pipe(fds) != 0) return -1;
  for (int i = 0; i < 2; ++i) {
    if (fcntl(fds[i], F_SETFD, FD_CLOEXEC) != 0 ||
        (status_flags != 0 && fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | status_flags) != 0)) {
      const int err = errno;
      close(fds[0]);
      close(fds[1]);
      errno = err;
      return -1;
    }
  }
  return 0;
}

bool die_with_parent() { return false; }

void close_on_exec_from(int first) {
  const int limit = descriptor_limit();
  for (int fd = first; fd < limit; ++fd) {
    const int flags = fcntl(fd, F_GETFD);
    if (flags >= 0) fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
  }
}

void close_from_except(int first, int keep) {
  const int limit = descriptor_limit();
  for (int fd = first; fd < limit; ++fd) {
    if (fd != keep) close(fd);
  }
}

}  // namespace posix

#if JBENCH_PLATFORM_LINUX
int open_pipe(int fds[2], int status_flags) { return pipe2(fds, O_CLOEXEC | status_flags); }

bool die_with_parent() { return prctl(PR_SET_PDEATHSIG, SIGKILL) == 0; }

void close_on_exec_from(int first) {
  if (close_range(static_cast<unsigned>(first), ~0U, CLOSE_RANGE_CLOEXEC) != 0) {
    posix::close_on_exec_from(first);  // a kernel before 5.11
  }
}

void close_from_except(int first, int keep) {
  if (keep < first) {
    if (close_range(static_cast<unsigned>(first), ~0U, 0) != 0) posix::close_from_except(first, -1);
    return;
  }
  if ((keep > first &&
       close_range(static_cast<unsigned>(first), static_cast<unsigned>(keep) - 1, 0) != 0) ||
      close_range(static_cast<unsigned>(keep) + 1, ~0U, 0) != 0) {
    posix::close_from_except(first, keep);  // a kernel before 5.9
  }
}
#else
int open_pipe(int fds[2], int status_flags) { return posix::open_pipe(fds, status_flags); }
bool die_with_parent() { return posix::die_with_parent(); }
void close_on_exec_from(int first) { posix::close_on_exec_from(first); }
void close_from_except(int first, int keep) { posix::close_from_except(first, keep); }
#endif

}  // namespace jbench::proc
