/* jb_platform.h without Linux: what POSIX (and the BSDs' and macOS's own calls, where they have
 * one) gives, for the systems DTrace lives on. Built and tested on Linux too (the
 * jbench_platform_posix_objects library, tests/platform/), so this path compiles and keeps its
 * contract wherever the build runs.
 *
 * What it cannot give: the process's start time in the Linux clock ticks the events format names
 * incarnations by, and the boot id; both report "not read" (0), and the bridge then stays off,
 * as it does on Linux when /proc cannot be read. Waiting on a word is a bounded sleep (no futex):
 * callers re-check the word, as the contract asks. */
#if defined(__APPLE__)
#define _DARWIN_C_SOURCE
#elif defined(__FreeBSD__)
#define __BSD_VISIBLE 1
#else
#define _DEFAULT_SOURCE /* getentropy */
#endif

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__FreeBSD__)
#include <pthread_np.h>
#include <sys/thr.h>
#endif

#include "jb_platform.h"

/* The longest one sleep in jb_platform_wait_word lasts: the delay a wake may take to be seen. */
#define JB_POSIX_WAIT_SLICE_NS 1000000

int jb_platform_start_time_ticks(uint64_t* out) {
  (void)out;
  return 0;
}

int jb_platform_boot_id(char* out, size_t len) {
  (void)out;
  (void)len;
  return 0;
}

int64_t jb_platform_pid(void) { return (int64_t)getpid(); }
int64_t jb_platform_parent_pid(void) { return (int64_t)getppid(); }

int64_t jb_platform_tid(void) {
#if defined(__APPLE__)
  uint64_t id = 0;
  pthread_threadid_np(NULL, &id);
  return (int64_t)id;
#elif defined(__FreeBSD__)
  long id = 0;
  thr_self(&id);
  return (int64_t)id;
#else
  /* No kernel thread id in POSIX: the thread's handle names it for as long as it lives. */
  return (int64_t)(uintptr_t)pthread_self();
#endif
}

int jb_platform_random_bytes(void* out, size_t len) {
  unsigned char* bytes = (unsigned char*)out;
  while (len > 0) {
    const size_t chunk = len < 256 ? len : 256; /* getentropy's limit per call */
    if (getentropy(bytes, chunk) != 0) return 0;
    bytes += chunk;
    len -= chunk;
  }
  return 1;
}

void jb_platform_wait_word(int* word, int expected, int64_t timeout_ns) {
  if (__atomic_load_n(word, __ATOMIC_ACQUIRE) != expected || timeout_ns <= 0) return;
  const int64_t slice = timeout_ns < JB_POSIX_WAIT_SLICE_NS ? timeout_ns : JB_POSIX_WAIT_SLICE_NS;
  const struct timespec pause = {(time_t)(slice / 1000000000), (long)(slice % 1000000000)};
  nanosleep(&pause, NULL);
}

void jb_platform_wake_word(int* word) { (void)word; /* the waiter's next slice sees the word */ }

void jb_platform_name_thread(pthread_t thread, const char* name) {
#if defined(__FreeBSD__)
  pthread_set_name_np(thread, name);
#else
  (void)thread; /* macOS names only the calling thread; elsewhere there is no portable call */
  (void)name;
#endif
}

void jb_platform_for_each_mapping(jb_platform_mapping_fn fn, void* context) {
  (void)fn; /* no portable list of mappings: nothing is called, as when they cannot be read */
  (void)context;
}

void jb_platform_exit_process(int status) {
  for (;;) _Exit(status);
}
