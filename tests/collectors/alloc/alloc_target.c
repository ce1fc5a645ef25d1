/* A target program for the allocation sampler's tests: it allocates a known number of bytes in
 * many sizes through every interposed function, and prints what it did as key=value lines, one
 * line per process, so a test can compare the sampler's estimate with the truth.
 *
 *   alloc_target mixed BYTES                    allocate BYTES in mixed sizes, then exit
 *   alloc_target phases BYTES_A BYTES_B         two phases, their CLOCK_MONOTONIC boundaries
 *   alloc_target threads N BYTES_EACH           N threads, each allocating BYTES_EACH
 *   alloc_target fork BYTES_PARENT BYTES_CHILD exit|_exit
 *                                               the child allocates and leaves by exit or _exit
 *   alloc_target spawn BYTES_PARENT BYTES_CHILD the child is this program, posix_spawn'ed
 *   alloc_target exec BYTES_BEFORE BYTES_AFTER  exec itself (same process) between the two
 *
 * Bytes are counted as the sampler counts them (docs/collectors/alloc.md): the size asked, and
 * for realloc the new size. Exit codes: 0 done, 2 bad usage, 3 a call failed.
 */
#include <pthread.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char** environ;

static const char* g_self;

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Field 22 of /proc/self/stat: with the pid, the incarnation the sampler must report. */
static unsigned long long start_time_ticks(void) {
  char buf[1024];
  FILE* f = fopen("/proc/self/stat", "r");
  if (!f) return 0;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  const char* p = strrchr(buf, ')');
  if (!p) return 0;
  int field = 2;
  for (++p; *p && field < 22; ++p) {
    if (*p == ' ') ++field;
  }
  return strtoull(p, NULL, 10);
}

static void fail(const char* what) {
  fprintf(stderr, "alloc_target: %s failed\n", what);
  exit(3);
}

/* xorshift64*: the workload is the same every run, whatever the sampler's seed. */
static uint64_t next_random(uint64_t* s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717u;
}

/* Sizes from 16 B to 1 MiB, log-uniform: most calls are small, most bytes are in large ones. */
static size_t next_size(uint64_t* s) {
  const unsigned shift = 4 + (unsigned)(next_random(s) % 17); /* 2^4 .. 2^20 */
  const size_t base = (size_t)1 << shift;
  return base + (size_t)(next_random(s) % base) / 2;
}

enum { kLive = 64 };

/* Allocates at least `total` bytes; returns the exact count. Keeps up to kLive blocks alive, so
 * realloc has blocks to grow and the heap sees a realistic mix of lifetimes. */
static uint64_t allocate(uint64_t total, uint64_t seed, uint64_t* calls) {
  void* live[kLive] = {0};
  uint64_t s = seed | 1;
  uint64_t done = 0;
  while (done < total) {
    const size_t n = next_size(&s);
    const unsigned slot = (unsigned)(next_random(&s) % kLive);
    const unsigned kind = (unsigned)(next_random(&s) % 20);
    void* p = NULL;
    if (kind < 13) {
      p = malloc(n);
    } else if (kind < 15) {
      p = calloc(n / 8 + 1, 8);
      done += (uint64_t)(n / 8 + 1) * 8 - n; /* calloc counts count x size */
    } else if (kind < 17) {
      p = realloc(live[slot], n); /* the old block is consumed */
      live[slot] = NULL;
    } else if (kind < 18) {
      if (posix_memalign(&p, 64, n) != 0) p = NULL;
    } else if (kind < 19) {
      p = aligned_alloc(4096, (n + 4095) / 4096 * 4096);
      done += (uint64_t)((n + 4095) / 4096 * 4096 - n);
    } else {
      char* text = malloc(n);
      if (!text) fail("malloc");
      memset(text, 'x', n < 64 ? n - 1 : 63);
      text[n < 64 ? n - 1 : 63] = '\0';
      p = strdup(text); /* glibc's own call to malloc, through the interposed symbol */
      done += strlen(text) + 1;
      free(text);
    }
    if (!p) fail("allocation");
    done += n;
    ++*calls;
    free(live[slot]);
    live[slot] = p;
  }
  for (unsigned i = 0; i < kLive; ++i) free(live[i]);
  return done;
}

static void report(const char* role, uint64_t bytes, uint64_t calls) {
  printf("role=%s pid=%ld start_time_ticks=%llu allocated_bytes=%llu calls=%llu\n", role,
         (long)getpid(), start_time_ticks(), (unsigned long long)bytes, (unsigned long long)calls);
  fflush(stdout);
}

static uint64_t arg_bytes(const char* text) {
  char* end = NULL;
  const unsigned long long v = strtoull(text, &end, 10);
  if (!*text || *end) {
    fprintf(stderr, "alloc_target: \"%s\" is not a byte count\n", text);
    exit(2);
  }
  return (uint64_t)v;
}

struct ThreadJob {
  uint64_t bytes;
  uint64_t seed;
  uint64_t done;
  uint64_t calls;
};

static void* thread_main(void* arg) {
  struct ThreadJob* job = arg;
  job->done = allocate(job->bytes, job->seed, &job->calls);
  return NULL;
}

static int run_threads(unsigned n, uint64_t each) {
  pthread_t threads[16];
  struct ThreadJob jobs[16];
  if (n == 0 || n > 16) return 2;
  for (unsigned i = 0; i < n; ++i) {
    jobs[i] = (struct ThreadJob){each, 1000 + i, 0, 0};
    if (pthread_create(&threads[i], NULL, thread_main, &jobs[i]) != 0) fail("pthread_create");
  }
  uint64_t bytes = 0, calls = 0;
  for (unsigned i = 0; i < n; ++i) {
    pthread_join(threads[i], NULL);
    bytes += jobs[i].done;
    calls += jobs[i].calls;
  }
  report("threads", bytes, calls);
  return 0;
}

static int run_fork(uint64_t parent_bytes, uint64_t child_bytes, const char* how) {
  uint64_t calls = 0;
  const uint64_t done = allocate(parent_bytes, 1, &calls);
  fflush(stdout);
  const pid_t pid = fork();
  if (pid < 0) fail("fork");
  if (pid == 0) {
    uint64_t child_calls = 0;
    const uint64_t child_done = allocate(child_bytes, 2, &child_calls);
    report("child", child_done, child_calls);
    if (strcmp(how, "_exit") == 0) _exit(0);
    exit(0);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fail("the child");
  }
  report("parent", done, calls);
  return 0;
}

static int run_spawn(uint64_t parent_bytes, const char* child_bytes) {
  uint64_t calls = 0;
  const uint64_t done = allocate(parent_bytes, 1, &calls);
  fflush(stdout);
  char* argv[] = {(char*)g_self, "mixed", (char*)child_bytes, NULL};
  pid_t pid = 0;
  if (posix_spawn(&pid, g_self, NULL, NULL, argv, environ) != 0) fail("posix_spawn");
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fail("the spawned child");
  }
  report("parent", done, calls);
  return 0;
}

int main(int argc, char** argv) {
  g_self = argv[0];
  const char* mode = argc > 1 ? argv[1] : "";
  uint64_t calls = 0;
  if (strcmp(mode, "mixed") == 0 && argc == 3) {
    const uint64_t done = allocate(arg_bytes(argv[2]), 1, &calls);
    report("main", done, calls);
    return 0;
  }
  if (strcmp(mode, "phases") == 0 && argc == 4) {
    const uint64_t t0 = now_ns();
    const uint64_t a = allocate(arg_bytes(argv[2]), 1, &calls);
    const uint64_t t1 = now_ns();
    const uint64_t b = allocate(arg_bytes(argv[3]), 2, &calls);
    const uint64_t t2 = now_ns();
    printf(
        "phase_a_start_ns=%llu phase_a_end_ns=%llu phase_b_end_ns=%llu a_bytes=%llu "
        "b_bytes=%llu\n",
        (unsigned long long)t0, (unsigned long long)t1, (unsigned long long)t2,
        (unsigned long long)a, (unsigned long long)b);
    report("main", a + b, calls);
    return 0;
  }
  if (strcmp(mode, "threads") == 0 && argc == 4) {
    return run_threads((unsigned)arg_bytes(argv[2]), arg_bytes(argv[3]));
  }
  if (strcmp(mode, "fork") == 0 && argc == 5) {
    return run_fork(arg_bytes(argv[2]), arg_bytes(argv[3]), argv[4]);
  }
  if (strcmp(mode, "spawn") == 0 && argc == 4) {
    arg_bytes(argv[3]);
    return run_spawn(arg_bytes(argv[2]), argv[3]);
  }
  if (strcmp(mode, "exec") == 0 && argc == 4) {
    allocate(arg_bytes(argv[2]), 1, &calls);
    char* args[] = {(char*)g_self, "mixed", argv[3], NULL};
    execv(g_self, args);
    fail("execv");
  }
  fprintf(stderr, "usage: alloc_target mixed|phases|threads|fork|spawn|exec ARGS (see source)\n");
  return 2;
}
