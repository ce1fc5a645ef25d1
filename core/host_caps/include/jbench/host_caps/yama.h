// Yama's ptrace scope (/proc/sys/kernel/yama/ptrace_scope): who may ptrace whom, which decides
// whether strace can attach. 0 classic, 1 restricted to descendants (and CAP_SYS_PTRACE),
// 2 CAP_SYS_PTRACE only, 3 nobody until reboot.
#pragma once

#include <optional>
#include <string>

namespace jbench::host_caps {

inline constexpr const char* kYamaPtraceScopeFile = "/proc/sys/kernel/yama/ptrace_scope";

// The scope under `root` ("" = the real filesystem); nullopt when Yama is not active or the file
// does not hold an integer.
std::optional<long> read_yama_ptrace_scope(const std::string& root = "");

}  // namespace jbench::host_caps
