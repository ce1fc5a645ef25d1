// What each descriptor of a traced process names, so a read or an ioctl on fd 7 can say which
// file it went to.
//
// Sources, most reliable first: the file identity (device:inode) the kernel reported for the
// call itself (bpftrace reads the task's descriptor table); the opens seen in the trace; and a
// snapshot of /proc/<pid>/fd taken when tracing began (for descriptors opened before). A path is
// given to a call only when the identity the table recorded for that descriptor is the call's
// own: a descriptor closed and reused by a call that is not traced (socket, dup, pipe) then has
// no path rather than a wrong one. strace resolves paths itself (-y) and reports no identity.
#pragma once

#include <sys/types.h>

#include <map>
#include <optional>
#include <string>

#include "observations.h"
#include "summary.h"

namespace jbench::collectors::syscall_detail {

struct FdEntry {
  std::string path;
  std::optional<FileIdentity> file;
};

using FdSnapshot = std::map<std::int64_t, FdEntry>;

// /proc/<pid>/fd: readlink and stat of each descriptor (those that vanish meanwhile are skipped).
FdSnapshot read_fd_snapshot(pid_t pid, const std::string& proc_root = "/proc");

class FdTables {
 public:
  void seed(std::size_t who, FdSnapshot snapshot) { tables_[who] = std::move(snapshot); }
  // A forked process starts with its parent's descriptors.
  void inherit(std::size_t child, std::size_t parent);
  bool has(std::size_t who) const { return tables_.count(who) > 0; }
  // Updates the table with `call` (a successful open records its descriptor) and returns the
  // call's row for the summary: descriptor, path, file identity.
  FileKey resolve(std::size_t who, CallRecord& call);

 private:
  std::map<std::size_t, FdSnapshot> tables_;
};

}  // namespace jbench::collectors::syscall_detail
