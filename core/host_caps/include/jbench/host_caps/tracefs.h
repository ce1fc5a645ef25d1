// Where tracefs is mounted and which syscall tracepoints it offers. Every path is prefixed by
// `root` ("" = the real filesystem) so that the doctor's tests can fake a host.
//
//   const TracefsLookup tracefs = find_tracefs();
//   if (!tracefs.dir.empty() && syscall_tracepoint_exists(tracefs.dir, "openat")) { ... }
#pragma once

#include <string>
#include <string_view>

namespace jbench::host_caps {

// The mount points searched, in order: the modern one, then the one under debugfs.
inline constexpr const char* kTracefsMounts[] = {"/sys/kernel/tracing",
                                                 "/sys/kernel/debug/tracing"};

struct TracefsLookup {
  std::string dir;  // the first mount point holding events/ (with the root prefix), "" if none
  // A mount point met before `dir` whose events/ could not be looked at (EACCES: tracefs is
  // root's only by default); "" if none. Tracing through it needs privilege.
  std::string denied;
  int denied_errno = 0;
};
TracefsLookup find_tracefs(const std::string& root = "");

// <tracefs>/events/syscalls/sys_enter_<call>: the tracepoint bpftrace attaches to for `call`.
std::string syscall_tracepoint_dir(const std::string& tracefs, std::string_view call);
bool syscall_tracepoint_exists(const std::string& tracefs, std::string_view call);

}  // namespace jbench::host_caps
