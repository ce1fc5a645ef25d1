/* jb_platform.h's plain POSIX part, the same on every system: compiled into each implementation's
 * objects. */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC, clock_gettime */

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "jb_platform.h"

long jb_platform_read_small_file(const char* path, char* out, size_t len) {
  if (len == 0) return -1;
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  size_t done = 0;
  while (done + 1 < len) {
    const ssize_t n = read(fd, out + done, len - 1 - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += (size_t)n;
  }
  close(fd);
  out[done] = '\0';
  return (long)done;
}
