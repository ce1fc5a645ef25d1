#include "jbench/sqlite_workload/identity.h"

#include <fcntl.h>
#include <sys/syscall.h>  // SYS_faccessat
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>

#include "jbench/common/platform_choice.h"
#include "jbench/common/runtime_id.h"
#include "jbench_bridge.h"

namespace jbench::sqlite_workload {

std::optional<std::string> worker_runtime_id() {
  if (jb_mode() != JB_MODE_OFF) {
    std::array<std::uint8_t, 16> bytes{};
    jb_runtime_id(bytes.data());
    // All zero would mean the bridge has no id after all; the harness refuses that id.
    if (std::any_of(bytes.begin(), bytes.end(), [](std::uint8_t b) { return b != 0; })) {
      return runtime_id_hex(bytes);
    }
  }
  return jbench::make_runtime_id();
}

std::string canary_path(const std::string& runtime_id) { return "/jbench-canary/" + runtime_id; }

CanaryResult fire_canary(const std::string& runtime_id) {
  CanaryResult r{canary_path(runtime_id), 0};
#if JBENCH_PLATFORM_LINUX
  // Exactly the call the worker's canary_done names (faccessat), whatever the C library's
  // wrapper would make.
  const long rc = ::syscall(SYS_faccessat, AT_FDCWD, r.path.c_str(), F_OK);
#else
  const long rc = ::faccessat(AT_FDCWD, r.path.c_str(), F_OK, 0);
#endif
  r.error = rc == 0 ? 0 : errno;
  return r;
}

}  // namespace jbench::sqlite_workload
