#include "folder_watch.h"

#include <fmt/format.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "jbench/common/platform_choice.h"

#if JBENCH_PLATFORM_LINUX
#include <sys/inotify.h>
#endif

namespace jbench::run {

WatchKind native_watch_kind() {
  return JBENCH_PLATFORM_LINUX ? WatchKind::inotify : WatchKind::recheck;
}

Result<FolderWatch> FolderWatch::open(const std::string& dir, WatchKind kind) {
  if (kind == WatchKind::recheck) return FolderWatch(-1);
#if JBENCH_PLATFORM_LINUX
  const int fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
  if (fd < 0) return Error{fmt::format("inotify_init1: {}", std::strerror(errno)), errno};
  if (inotify_add_watch(fd, dir.c_str(), IN_CREATE | IN_MOVED_TO) < 0) {
    const int e = errno;
    ::close(fd);
    return Error{fmt::format("cannot watch the folder {}: {}", dir, std::strerror(e)), e};
  }
  return FolderWatch(fd);
#else
  return Error{fmt::format("cannot watch the folder {}: inotify is Linux's", dir), ENOSYS};
#endif
}

FolderWatch::FolderWatch(FolderWatch&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

FolderWatch::~FolderWatch() {
  if (fd_ >= 0) ::close(fd_);
}

void FolderWatch::drain() {
  if (fd_ < 0) return;
  char events[4096];
  while (::read(fd_, events, sizeof events) > 0) {
  }
}

void FolderWatch::wait(int timeout_ms) {
  if (fd_ < 0) {
    ::poll(nullptr, 0, std::min(timeout_ms, kRecheckMs));
    return;
  }
  pollfd p{fd_, POLLIN, 0};
  ::poll(&p, 1, timeout_ms);
}

}  // namespace jbench::run
