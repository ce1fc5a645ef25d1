// The worker's identity and its canary.
//
// runtime_id: 128 bits from getrandom(2), as 32 lowercase hex characters, created once at
// start; with (boot_id, pid, start_time) it names this process incarnation.
//
// The canary is one syscall a tracer can recognise without any help from the worker:
//   faccessat(AT_FDCWD, "/jbench-canary/<runtime_id>", F_OK)
// issued as the raw faccessat syscall (glibc's faccessat() would issue faccessat2 on this
// system), so a collector matches syscalls:sys_enter_faccessat and the path. It fails with
// ENOENT and touches nothing.
#pragma once

#include <optional>
#include <string>

namespace jbench::sqlite_workload {

// nullopt if getrandom(2) fails (it blocks, but only until the kernel's pool is initialised).
std::optional<std::string> make_runtime_id();

std::string canary_path(const std::string& runtime_id);

struct CanaryResult {
  std::string path;
  int error = 0;  // errno of the syscall: ENOENT expected, 0 if the path unexpectedly exists
};
CanaryResult fire_canary(const std::string& runtime_id);

}  // namespace jbench::sqlite_workload
