#include "process_info.h"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace jb_detail {
namespace {

// Reads at most len - 1 bytes of `path` into out, NUL-terminated; returns the length or -1.
long read_small_file(const char* path, char* out, std::size_t len) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  std::size_t done = 0;
  while (done + 1 < len) {
    const ssize_t n = ::read(fd, out + done, len - 1 - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  out[done] = '\0';
  return static_cast<long>(done);
}

}  // namespace

bool read_start_time_ticks(std::uint64_t& out) noexcept {
  char buf[1024];
  if (read_small_file("/proc/self/stat", buf, sizeof buf) <= 0) return false;
  // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
  const char* p = std::strrchr(buf, ')');
  if (!p) return false;
  int field = 2;
  for (++p; *p && field < 22; ++p) {
    if (*p == ' ') ++field;
  }
  if (field != 22 || *p < '0' || *p > '9') return false;
  std::uint64_t v = 0;
  for (; *p >= '0' && *p <= '9'; ++p) v = v * 10 + static_cast<std::uint64_t>(*p - '0');
  out = v;
  return true;
}

bool read_boot_id(char* out, std::size_t len) noexcept {
  const long n = read_small_file("/proc/sys/kernel/random/boot_id", out, len);
  if (n <= 0) return false;
  if (out[n - 1] == '\n') out[n - 1] = '\0';
  return true;
}

std::int64_t current_tid() noexcept { return static_cast<std::int64_t>(::syscall(SYS_gettid)); }

bool random_bytes(std::uint8_t* out, std::size_t len) noexcept {
  std::size_t done = 0;
  while (done < len) {
    const ssize_t n = ::getrandom(out + done, len - done, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace jb_detail
