#include "jbench/sqlite_workload/identity.h"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <cerrno>

namespace jbench::sqlite_workload {

std::optional<std::string> make_runtime_id() {
  std::array<unsigned char, 16> bytes{};
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = getrandom(bytes.data() + done, bytes.size() - done, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::nullopt;
    done += static_cast<std::size_t>(n);
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned char b : bytes) {
    hex.push_back(kHex[b >> 4]);
    hex.push_back(kHex[b & 0xf]);
  }
  return hex;
}

std::string canary_path(const std::string& runtime_id) { return "/jbench-canary/" + runtime_id; }

CanaryResult fire_canary(const std::string& runtime_id) {
  CanaryResult r{canary_path(runtime_id), 0};
  const long rc = ::syscall(SYS_faccessat, AT_FDCWD, r.path.c_str(), F_OK);
  r.error = rc == 0 ? 0 : errno;
  return r;
}

}  // namespace jbench::sqlite_workload
