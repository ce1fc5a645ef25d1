// The worker's identity and its canary.
//
// runtime_id: 128 bits as 32 lowercase hex characters, created once at start; with (boot_id, pid,
// start_time) it names this process incarnation. While the trace bridge is on it is the bridge's
// own runtime id (jb_runtime_id, the trace-id of its traceparents), so the records and the
// registered incarnation carry the same id; while it is off, 128 bits from getrandom(2).
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

// The id the worker announces in hello: the bridge's while it is on (call after
// jb_init_from_env), else jbench::make_runtime_id() (common/runtime_id.h). nullopt only if
// getrandom(2) fails.
std::optional<std::string> worker_runtime_id();

std::string canary_path(const std::string& runtime_id);

struct CanaryResult {
  std::string path;
  int error = 0;  // errno of the syscall: ENOENT expected, 0 if the path unexpectedly exists
};
CanaryResult fire_canary(const std::string& runtime_id);

}  // namespace jbench::sqlite_workload
