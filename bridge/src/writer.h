// The writer: the one consumer of every thread's ring. A background thread (started by
// jb_init_from_env in light/full, and lazily in a forked child at its first event) wakes every
// kWriterPeriod, or sooner when a ring is half full, drains every ring, encodes the events as
// JSON Lines (docs/events.md) and appends them to the raw file. Private.
//
// A drain pass holds the drain lock; producers never take it. Within a stream records are written
// in ring order, so seq and t_ns only grow; streams are not merged by time (docs/events.md says
// what a reader can rely on across streams).
#pragma once

#include <string>

#pragma GCC visibility push(hidden)

namespace jb_detail {

// Writes all of `text` (whole lines; the file is O_APPEND), retrying on EINTR; false if the file
// refused. The header, every pass and the trailer go through it.
bool write_all(int fd, const std::string& text) noexcept;

struct ThreadState;

// Starts the background writer of this process if it is not running. False if it could not be
// started (events then wait in the rings until a drain at fork or shutdown). Any thread.
bool ensure_writer() noexcept;
// Asks the writer for a pass now (cheap when a request is already pending). Any thread.
void wake_writer() noexcept;
// Stops the background writer and waits for it; no pass runs afterwards but drain_all's.
void stop_writer() noexcept;

// One pass, now, on the calling thread. `final` also reports every stream's outstanding drops
// (shutdown). Takes the drain lock.
void drain_all(bool final) noexcept;

// Drains the ring of a thread that has exited and frees its state for the next new thread.
// Takes the drain lock; called by the exiting thread.
void drain_exited(ThreadState& s) noexcept;

// Fork: the parent drains and holds the drain lock across fork(); the child gets a fresh lock and
// no writer thread (threads do not survive fork).
void writer_before_fork() noexcept;
void writer_after_fork_parent() noexcept;
void writer_after_fork_child() noexcept;

// While held, the background writer skips its passes (benchmarks measure the producer alone).
void hold_writer(bool hold) noexcept;

}  // namespace jb_detail

#pragma GCC visibility pop
