// Pipes and a child's descriptors and lifetime, with Linux's own calls on Linux (pipe2,
// close_range, PR_SET_PDEATHSIG) and POSIX ones elsewhere (macOS, FreeBSD, illumos). The POSIX
// versions (namespace posix) are built and tested on every system.
//
//   int fds[2];
//   if (open_pipe(fds, O_NONBLOCK) != 0) ...   // both ends close-on-exec; errno says why
#pragma once

namespace jbench::proc {

// A pipe whose ends are close-on-exec, with `status_flags` (0 or O_NONBLOCK) on both: 0, or -1
// with errno set.
int open_pipe(int fds[2], int status_flags);

// The rest run in a child between fork and exec, so they make only async-signal-safe calls.

// Asks the system to kill this child when the process that forked it ends. False where the
// system cannot (it then outlives a harness killed by SIGKILL; every other end of the harness
// still ends its process group).
bool die_with_parent();

// Marks every descriptor from `first` up close-on-exec.
void close_on_exec_from(int first);

// Closes every descriptor from `first` up but `keep`.
void close_from_except(int first, int keep);

namespace posix {
// pipe, then fcntl on each end: a descriptor made between the two calls in another thread's
// fork would leak into that child (pipe2 makes both at once).
int open_pipe(int fds[2], int status_flags);
bool die_with_parent();  // false: POSIX has no such request
void close_on_exec_from(int first);
void close_from_except(int first, int keep);
}  // namespace posix

}  // namespace jbench::proc
