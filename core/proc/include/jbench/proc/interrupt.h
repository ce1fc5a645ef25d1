// Ctrl-C and SIGTERM as an orderly stop: while an InterruptWatch lives, SIGINT and SIGTERM set a
// flag and wake poll() through a self-pipe instead of killing the harness, so the runner can stop
// its workers and finalize the bundle as interrupted. The previous handlers come back when it
// dies. Watches nest (one thread): an inner one shares the outer's flag, so a command that
// watches around sessions that watch themselves loses no signal between them.
#pragma once

namespace jbench::proc {

class InterruptWatch {
 public:
  InterruptWatch();
  ~InterruptWatch();
  InterruptWatch(const InterruptWatch&) = delete;
  InterruptWatch& operator=(const InterruptWatch&) = delete;

  bool interrupted() const;
  int signal() const;   // the first signal received, 0 if none
  int wake_fd() const;  // readable once a signal arrived; add it to poll()
};

}  // namespace jbench::proc
