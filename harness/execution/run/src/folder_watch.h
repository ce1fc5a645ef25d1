// A wake-up when a name appears in one folder, for waits that must not sleep blindly (the
// lockstep of a duet). Two kinds: `inotify` (Linux's, the default there) wakes on the event;
// `recheck` (POSIX, the default elsewhere, built and tested everywhere) wakes every
// kRecheckMs, so a waiter looks again at least that often. macOS and FreeBSD could watch with
// kqueue; until then they recheck.
#pragma once

#include <string>

#include "jbench/common/result.h"

namespace jbench::run {

enum class WatchKind { inotify, recheck };

// inotify on Linux, recheck elsewhere.
WatchKind native_watch_kind();

class FolderWatch {
 public:
  static constexpr int kRecheckMs = 5;

  // Watches `dir`, which must exist; the watch starts now, so a name that appears after this
  // call is seen by a later look or ends a wait.
  static Result<FolderWatch> open(const std::string& dir, WatchKind kind);
  FolderWatch(FolderWatch&& other) noexcept;
  FolderWatch& operator=(FolderWatch&&) = delete;
  FolderWatch(const FolderWatch&) = delete;
  ~FolderWatch();

  // Forgets the wake-ups so far (look at the folder after this, not before).
  void drain();
  // Returns when a name may have appeared since the last drain, or after `timeout_ms`.
  void wait(int timeout_ms);

 private:
  explicit FolderWatch(int fd) : fd_(fd) {}
  int fd_ = -1;  // the inotify descriptor; -1 when rechecking
};

}  // namespace jbench::run
