/* The one place where jbench's in-process libraries — the trace bridge (bridge/) and the
 * allocation sampler libjbench_alloc.so (collectors/alloc/preload/) — touch what only one
 * operating system has: thread ids, the process's start time and the boot id, randomness,
 * waiting on a word (futex), naming a thread, the process's mappings, ending the process.
 *
 *   uint64_t ticks;
 *   if (jb_platform_start_time_ticks(&ticks)) { ... (pid, ticks) names this incarnation ... }
 *   jb_platform_wait_word(&word, 0, 10000000);   // until word != 0, a wake, or 10 ms
 *
 * Rules for every function: it makes system calls only — it allocates nothing, takes no lock
 * and is async-signal-safe — so it may run inside a malloc hook, in a fork child of a
 * multithreaded process and on an exit path. All are hidden: each library that links the
 * objects (jbench_platform_objects) gets its own private copy, called without a PLT.
 *
 * Implementations: src/platform_linux.c, and src/platform_posix.c for the systems DTrace lives on
 * (macOS, FreeBSD, illumos), which every build also compiles and tests here
 * (tests/platform/; -DJBENCH_PLATFORM=posix links jbench's libraries on it). It reads no start
 * time or boot id (the bridge then refuses to start, saying so) and lists no mappings; a Darwin
 * file would give them, and each declaration below says what it must do there ("Darwin:"). Some
 * things these libraries do are not behind this seam because they are not one system call: the
 * allocation sampler's interposition of the malloc family (interpose.cpp: ELF symbol interposition
 * under LD_PRELOAD; Darwin needs __DATA,__interpose and DYLD_INSERT_LIBRARIES, and has no memalign
 * or pvalloc) and the bridge's USDT probes (systemtap's sys/sdt.h; Darwin's dtrace -h writes its
 * own header).
 *
 * C-compatible (the implementation is C; the libraries are C++ without exceptions). */
#ifndef JB_PLATFORM_H
#define JB_PLATFORM_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(hidden)

/* Reads at most len - 1 bytes of `path` into out, NUL-terminated; the byte count, or -1 when the
 * file cannot be opened (or len is 0). Plain POSIX; here because every reader below uses it. */
long jb_platform_read_small_file(const char* path, char* out, size_t len);

/* This process's start time in clock ticks after boot, field 22 of /proc/self/stat: with the pid
 * it names this incarnation, since pids are reused. 1 when read, 0 when not (out untouched).
 * Darwin: no such field; sysctl(KERN_PROC_PID) gives kp_proc.p_starttime, a wall-clock timeval,
 * which is not the same unit: the events format (docs/events.md) would have to say so first. */
int jb_platform_start_time_ticks(uint64_t* out);

/* The kernel's boot id (/proc/sys/kernel/random/boot_id) into out, NUL-terminated, newline
 * removed; 1 when read, 0 when not. Darwin: sysctlbyname("kern.bootsessionuuid"). */
int jb_platform_boot_id(char* out, size_t len);

/* The pid and the parent's pid, from the kernel each time (never a cached value), so they are
 * right in a fork child. Darwin: getpid(), getppid(). */
int64_t jb_platform_pid(void);
int64_t jb_platform_parent_pid(void);

/* The calling thread's kernel id (gettid): what /proc/<pid>/task lists and what tracers report.
 * Darwin: pthread_threadid_np(NULL, &id), a 64-bit id. */
int64_t jb_platform_tid(void);

/* Fills out with len random bytes from the kernel (getrandom); 1 on success, 0 if refused.
 * Darwin: getentropy, at most 256 bytes per call. */
int jb_platform_random_bytes(void* out, size_t len);

/* Sleeps while *word == expected, for at most timeout_ns: returns on jb_platform_wake_word, on
 * the timeout, at once if *word != expected, or spuriously — the caller re-checks. Only threads
 * of this process share the word (FUTEX_PRIVATE). Darwin: os_sync_wait_on_address_with_timeout
 * (macOS 14.4), or __ulock_wait(UL_COMPARE_AND_WAIT); a pthread condvar would take a lock. */
void jb_platform_wait_word(int* word, int expected, int64_t timeout_ns);
/* Wakes one thread sleeping in jb_platform_wait_word on `word`. Darwin: os_sync_wake_by_address_any
 * or __ulock_wake. */
void jb_platform_wake_word(int* word);

/* Names `thread` for ps, top and debuggers (at most 15 bytes kept). Cosmetic: failures are
 * ignored. Darwin: pthread_setname_np(name) names only the calling thread, so it does nothing for
 * another thread unless the call moves into the thread itself. */
void jb_platform_name_thread(pthread_t thread, const char* name);

/* One file-backed mapping: [start, end) maps the file `path` from file offset `offset`. `path` is
 * valid only during the call. */
typedef void (*jb_platform_mapping_fn)(void* context, uint64_t start, uint64_t end, uint64_t offset,
                                       const char* path);
/* Calls fn for each file-backed mapping of this process, in address order (/proc/self/maps;
 * anonymous, [heap], [vdso]... and lines longer than PATH_MAX are left out). Nothing is called
 * when the mappings cannot be read. Not dladdr: the loader's lock may be held forever in a fork
 * child. Darwin: the images of _dyld_image_count / _dyld_get_image_header and their segments. */
void jb_platform_for_each_mapping(jb_platform_mapping_fn fn, void* context);

/* Ends the whole process with `status` at once — no atexit handlers, no destructors — without
 * calling _exit (which the allocation sampler interposes). Darwin: the exit system call. */
__attribute__((noreturn)) void jb_platform_exit_process(int status);

/* CLOCK_MONOTONIC in ns: the one clock of every raw file (docs/events.md). Inline: it is on the
 * hot path of every recorded event, and the vDSO call behind it is most of that path's cost.
 * POSIX (Darwin has it too). */
static inline uint64_t jb_platform_monotonic_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  const uint64_t seconds = ts.tv_sec;
  const uint64_t nanoseconds = ts.tv_nsec;
  return seconds * 1000000000u + nanoseconds;
}

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif /* JB_PLATFORM_H */
