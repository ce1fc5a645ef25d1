// An independent oracle: `strace -f -c` attached to jbench-syscall-target in the same run as a
// backend counts the same calls and errors per syscall (summed over phases, the program and its
// forked child). strace and the tracing backends share no code and observe differently (ptrace
// stops against kernel probes), so agreement is evidence about both.
#pragma once

#include <string>

#include "jbench/collectors/syscall/syscall_collector.h"

namespace jbench::test {

void expect_agreement_with_strace(const std::string& backend, collectors::SyscallDetail detail);

}  // namespace jbench::test
