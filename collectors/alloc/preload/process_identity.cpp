#include "process_identity.h"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace jb_alloc {

long read_small_file(const char* path, char* out, std::size_t len) noexcept {
  if (len == 0) return -1;
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

Incarnation current_incarnation() noexcept {
  Incarnation self;
  self.pid = current_pid();
  char stat[1024];
  if (read_small_file("/proc/self/stat", stat, sizeof stat) <= 0) return self;
  // Field 2, the command name, may hold spaces and parentheses: fields are counted from the
  // last ')'. Field 3 follows it.
  const char* p = std::strrchr(stat, ')');
  if (!p) return self;
  int field = 2;
  for (++p; *p && field < 22; ++p) {
    if (*p == ' ') ++field;
  }
  std::uint64_t ticks = 0;
  bool digits = false;
  for (; *p >= '0' && *p <= '9'; ++p) {
    ticks = ticks * 10 + static_cast<std::uint64_t>(*p - '0');
    digits = true;
  }
  if (field == 22 && digits) self.start_time_ticks = ticks;
  return self;
}

// glibc has not cached the pid since 2.25; the system call is the truth after a fork.
std::int64_t current_pid() noexcept { return static_cast<std::int64_t>(::syscall(SYS_getpid)); }
std::int64_t parent_pid() noexcept { return static_cast<std::int64_t>(::syscall(SYS_getppid)); }
std::int32_t current_tid() noexcept { return static_cast<std::int32_t>(::syscall(SYS_gettid)); }

std::uint64_t monotonic_ns() noexcept {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

bool read_boot_id(char* out, std::size_t len) noexcept {
  const long n = read_small_file("/proc/sys/kernel/random/boot_id", out, len);
  if (n <= 0) return false;
  if (out[n - 1] == '\n') out[n - 1] = '\0';
  return true;
}

bool random_u64(std::uint64_t& out) noexcept {
  unsigned char bytes[sizeof out];
  std::size_t done = 0;
  while (done < sizeof bytes) {
    const ssize_t n = ::getrandom(bytes + done, sizeof bytes - done, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
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
