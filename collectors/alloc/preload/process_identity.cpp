#include "process_identity.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace jb_alloc {

Incarnation current_incarnation() noexcept {
  Incarnation self;
  self.pid = current_pid();
  std::uint64_t ticks = 0;
  if (jb_platform_start_time_ticks(&ticks)) self.start_time_ticks = ticks;
  return self;
}

bool random_u64(std::uint64_t& out) noexcept {
  unsigned char bytes[sizeof out];
  if (!jb_platform_random_bytes(bytes, sizeof bytes)) return false;
  std::memcpy(&out, bytes, sizeof out);
  return true;
}

void write_stderr(const char* text) noexcept {
  std::size_t left = std::strlen(text);
  while (left > 0) {
    const ssize_t n = ::write(STDERR_FILENO, text, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    text += n;
    left -= static_cast<std::size_t>(n);
  }
}

}  // namespace jb_alloc
