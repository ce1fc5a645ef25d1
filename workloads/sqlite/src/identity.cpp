#include "jbench/sqlite_workload/identity.h"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>

#include "jbench_bridge.h"

namespace jbench::sqlite_workload {

namespace {

std::string to_hex(const std::array<std::uint8_t, 16>& bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (std::uint8_t b : bytes) {
    hex.push_back(kHex[b >> 4]);
    hex.push_back(kHex[b & 0xf]);
  }
  return hex;
}

}  // namespace

std::optional<std::string> make_runtime_id() {
  std::array<std::uint8_t, 16> bytes{};
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = getrandom(bytes.data() + done, bytes.size() - done, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::nullopt;
    done += static_cast<std::size_t>(n);
  }
  return to_hex(bytes);
}

std::optional<std::string> worker_runtime_id() {
  if (jb_mode() != JB_MODE_OFF) {
    std::array<std::uint8_t, 16> bytes{};
    jb_runtime_id(bytes.data());
    // All zero would mean the bridge has no id after all; the harness refuses that id.
    if (std::any_of(bytes.begin(), bytes.end(), [](std::uint8_t b) { return b != 0; })) {
      return to_hex(bytes);
    }
  }
  return make_runtime_id();
}

std::string canary_path(const std::string& runtime_id) { return "/jbench-canary/" + runtime_id; }

CanaryResult fire_canary(const std::string& runtime_id) {
  CanaryResult r{canary_path(runtime_id), 0};
  const long rc = ::syscall(SYS_faccessat, AT_FDCWD, r.path.c_str(), F_OK);
  r.error = rc == 0 ? 0 : errno;
  return r;
}

}  // namespace jbench::sqlite_workload
