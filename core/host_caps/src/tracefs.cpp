#include "jbench/host_caps/tracefs.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <cerrno>

namespace jbench::host_caps {
namespace {

// 0 when `path` is a directory, else the errno of stat (ENOTDIR when it is something else).
int directory_error(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return errno;
  return S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
}

}  // namespace

TracefsLookup find_tracefs(const std::string& root) {
  TracefsLookup lookup;
  for (const char* mount : kTracefsMounts) {
    const std::string dir = root + mount;
    const int error = directory_error(dir + "/events");
    if (error == 0) {
      lookup.dir = dir;
      return lookup;
    }
    if (error == EACCES && lookup.denied.empty()) {
      lookup.denied = dir;
      lookup.denied_errno = error;
    }
  }
  return lookup;
}

std::string syscall_tracepoint_dir(const std::string& tracefs, std::string_view call) {
  return fmt::format("{}/events/syscalls/sys_enter_{}", tracefs, call);
}

bool syscall_tracepoint_exists(const std::string& tracefs, std::string_view call) {
  return directory_error(syscall_tracepoint_dir(tracefs, call)) == 0;
}

}  // namespace jbench::host_caps
