// Which file a process writes, and claiming it (docs/collectors/alloc.md, "Files").
//
// A process claims its file when it starts (or, for a fork child, at the fork) by creating it
// with O_EXCL and writing the header, which names the owning incarnation. The rest is appended
// at exit. The claim decides, without any coordination between processes:
//
//   - JBENCH_ALLOC_OUT is free: this process owns it.
//   - it names this very incarnation: the process exec'ed itself; the new image takes it over.
//   - it belongs to another process of the same run (a parent that forked, posix_spawn'ed or
//     system()'d this one): this process writes `<JBENCH_ALLOC_OUT>.<pid>` instead.
//   - anything else (another run's file, not an alloc file): refused; nothing is sampled.
//
// A fork child goes straight to `<JBENCH_ALLOC_OUT>.<pid>`. The descriptor is closed after each
// step: the program may close descriptors it does not know, or reuse their numbers.
#pragma once

#include <sys/types.h>

#include <cstddef>

#include "event_writer.h"

namespace jb_alloc {

struct OutputFile {
  char path[4096 + 32] = {};
  dev_t device = 0;
  ino_t inode = 0;
};

// Claims a file for `facts.self` and writes its header. False when refused or when the file
// cannot be created; `why` then holds one line for stderr.
bool claim_output(const FileFacts& facts, OutputFile& out, char* why, std::size_t why_len) noexcept;

// Opens the claimed file for appending; -1 if it is gone or was replaced (message in `why`).
int reopen_output(const OutputFile& file, char* why, std::size_t why_len) noexcept;

}  // namespace jb_alloc
