// A USDT probe with a semaphore fires only while its semaphore (a 16-bit counter in the binary's
// data) is non-zero: the kernel's uprobes raise it for bpftrace; DTrace's pid provider does not.
// This raises or lowers them in a running process, through /proc/<pid>/mem (root, or the
// process's owner where ptrace is allowed). Linux only.
//
//   if (Status s = add_to_semaphores(pid, so_path, notes, functions, +1); !s) ...
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "jbench/common/result.h"
#include "jbench/elf/functions.h"
#include "jbench/probes/stapsdt.h"

namespace jbench {

// Adds `delta` to each distinct semaphore of `probes` (the notes of the file at `module_path`,
// whose load segments `functions` holds) in process `pid`, where that file is mapped; or why not
// (not mapped, unreadable memory), having changed nothing when a semaphore could not be read.
Status add_to_semaphores(pid_t pid, const std::string& module_path,
                         const std::vector<SdtProbe>& probes, const elf::FunctionTable& functions,
                         int delta);

}  // namespace jbench
