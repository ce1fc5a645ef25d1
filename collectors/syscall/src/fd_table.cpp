#include "fd_table.h"

#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <filesystem>

#include "jbench/common/platform_choice.h"
#include "syscall_table.h"

#if JBENCH_PLATFORM_LINUX
#include <sys/sysmacros.h>  // major, minor (glibc)
#endif

namespace jbench::collectors::syscall_detail {

FdSnapshot read_fd_snapshot(pid_t pid, const std::string& proc_root) {
  FdSnapshot out;
  const std::string dir = proc_root + "/" + std::to_string(pid) + "/fd";
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    std::int64_t fd = 0;
    const auto [end, parse] = std::from_chars(name.data(), name.data() + name.size(), fd);
    if (parse != std::errc() || end != name.data() + name.size()) continue;
    char target[4096];
    const ssize_t n = readlink(entry.path().c_str(), target, sizeof target - 1);
    if (n <= 0) continue;
    FdEntry e;
    e.path.assign(target, static_cast<std::size_t>(n));
#if JBENCH_PLATFORM_LINUX
    // The device as the compiled tracer's records give it (major, minor): Linux's numbering.
    struct stat st {};
    if (stat(entry.path().c_str(), &st) == 0) {
      e.file = FileIdentity{major(st.st_dev), minor(st.st_dev), st.st_ino};
    }
#endif
    out.emplace(fd, std::move(e));
  }
  return out;
}

void FdTables::inherit(std::size_t child, std::size_t parent) {
  auto it = tables_.find(parent);
  if (it != tables_.end() && !tables_.count(child)) tables_[child] = it->second;
}

FileKey FdTables::resolve(std::size_t who, CallRecord& call) {
  FdSnapshot& table = tables_[who];
  const TracedCall& traced = *call_by_id(call.call);
  if (traced.kind == ArgKind::path) {
    // An open: the row is the path asked for; a success names its new descriptor.
    FileKey key{call.result.value_or(-1), call.path, call.file};
    if (call.result && *call.result >= 0) {
      table[*call.result] = FdEntry{call.result_path.value_or(call.path), call.file};
    }
    return key;
  }
  FileKey key{call.fd, call.path, call.file};
  auto it = table.find(call.fd);
  if (call.path.empty() && it != table.end()) {
    // The kernel's identity must match what the table recorded; strace gives no identity but
    // names the path itself, so this only fills paths for bpftrace.
    if (call.file && it->second.file && *call.file == *it->second.file) {
      call.path = it->second.path;
      key.path = call.path;
    }
  }
  return key;
}

}  // namespace jbench::collectors::syscall_detail
