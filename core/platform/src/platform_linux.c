/* jb_platform.h on Linux: gettid, getrandom, futex, exit_group, and /proc. */
#define _GNU_SOURCE /* syscall(), pthread_setname_np */

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "jb_platform.h"

int jb_platform_start_time_ticks(uint64_t* out) {
  char buf[1024];
  if (jb_platform_read_small_file("/proc/self/stat", buf, sizeof buf) <= 0) return 0;
  /* The command name (field 2) may hold spaces and parentheses: count fields after the last
   * ')'. */
  const char* p = strrchr(buf, ')');
  if (!p) return 0;
  int field = 2;
  for (++p; *p && field < 22; ++p) {
    if (*p == ' ') ++field;
  }
  if (field != 22 || *p < '0' || *p > '9') return 0;
  uint64_t v = 0;
  for (; *p >= '0' && *p <= '9'; ++p) v = v * 10 + (uint64_t)(*p - '0');
  *out = v;
  return 1;
}

int jb_platform_boot_id(char* out, size_t len) {
  const long n = jb_platform_read_small_file("/proc/sys/kernel/random/boot_id", out, len);
  if (n <= 0) return 0;
  if (out[n - 1] == '\n') out[n - 1] = '\0';
  return 1;
}

/* glibc has not cached the pid since 2.25, but the system call leaves no doubt after a fork. */
int64_t jb_platform_pid(void) { return (int64_t)syscall(SYS_getpid); }
int64_t jb_platform_parent_pid(void) { return (int64_t)syscall(SYS_getppid); }
int64_t jb_platform_tid(void) { return (int64_t)syscall(SYS_gettid); }

int jb_platform_random_bytes(void* out, size_t len) {
  unsigned char* bytes = (unsigned char*)out;
  size_t done = 0;
  while (done < len) {
    const ssize_t n = getrandom(bytes + done, len - done, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return 0;
    done += (size_t)n;
  }
  return 1;
}

void jb_platform_wait_word(int* word, int expected, int64_t timeout_ns) {
  const struct timespec timeout = {(time_t)(timeout_ns / 1000000000),
                                   (long)(timeout_ns % 1000000000)};
  syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, &timeout, NULL, 0);
}

void jb_platform_wake_word(int* word) {
  syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

void jb_platform_name_thread(pthread_t thread, const char* name) {
  pthread_setname_np(thread, name);
}

/* /proc/self/maps, one line per mapping: "start-end perms offset dev inode   path". */
static uint64_t parse_hex(const char** p) {
  uint64_t v = 0;
  for (;; ++*p) {
    const char c = **p;
    if (c >= '0' && c <= '9') {
      v = v * 16 + (uint64_t)(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      v = v * 16 + (uint64_t)(c - 'a' + 10);
    } else {
      return v;
    }
  }
}

static void skip_field(const char** p) {
  while (**p && **p != ' ') ++*p;
  while (**p == ' ') ++*p;
}

static void map_line(const char* line, jb_platform_mapping_fn fn, void* context) {
  const char* p = line;
  const uint64_t start = parse_hex(&p);
  if (*p++ != '-') return;
  const uint64_t end = parse_hex(&p);
  while (*p == ' ') ++p;
  skip_field(&p); /* perms */
  const uint64_t offset = parse_hex(&p);
  while (*p == ' ') ++p;
  skip_field(&p);        /* dev */
  skip_field(&p);        /* inode */
  if (*p != '/') return; /* anonymous, [heap], [vdso]… */
  fn(context, start, end, offset, p);
}

void jb_platform_for_each_mapping(jb_platform_mapping_fn fn, void* context) {
  const int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  char chunk[16384];
  char line[4096 + 256];
  size_t used = 0;
  int overlong = 0;
  for (;;) {
    const ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (ssize_t i = 0; i < n; ++i) {
      if (chunk[i] == '\n') {
        line[used] = '\0';
        if (!overlong) map_line(line, fn, context);
        used = 0;
        overlong = 0;
      } else if (used + 1 < sizeof line) {
        line[used++] = chunk[i];
      } else {
        overlong = 1; /* a path longer than PATH_MAX: leave that mapping out */
      }
    }
  }
  close(fd);
}

void jb_platform_exit_process(int status) {
  for (;;) syscall(SYS_exit_group, status);
}
