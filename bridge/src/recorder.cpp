#include "recorder.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "event_json.h"
#include "jbench_bridge.h"
#include "process_state.h"
#include "thread_state.h"
#include "writer.h"

namespace jb_detail {

std::atomic<int> g_mode{JB_MODE_OFF};
ProcessState g_process;

namespace {

constexpr std::uint64_t kMaxRingSlots = 1ull << 24;

void complain(const char* what, const char* detail) {
  std::fprintf(stderr, "jbench bridge: %s%s%s; the bridge stays off\n", what, detail ? ": " : "",
               detail ? detail : "");
}

// JBENCH_BRIDGE_BUFFER rounded up to a power of two, at least 2 (an event with a long name takes
// two slots).
std::uint64_t ring_slots(const char* text) {
  if (!text || !*text) return kDefaultRingSlots;
  const std::uint64_t wanted =
      std::clamp<std::uint64_t>(std::strtoull(text, nullptr, 10), 2, kMaxRingSlots);
  std::uint64_t slots = 2;
  while (slots < wanted) slots <<= 1;
  return slots;
}

void before_fork() {
  if (g_process.recording) writer_before_fork();
}

void after_fork_parent() {
  if (g_process.recording) writer_after_fork_parent();
}

// The child is a new incarnation: new pid and start time, so new span ids (the forking thread's
// block carried the parent's pid) and fresh streams, no trailer of its own, and no writer thread
// until its first event. Only the forking thread exists here.
void after_fork_child() {
  g_process.owner = false;
  g_process.pid = ::getpid();
  g_process.canaries.store(0);
  g_process.unbuffered_drops.store(0);
  if (!read_start_time_ticks(g_process.start_time_ticks)) g_mode.store(JB_MODE_OFF);
  if (g_process.recording) {
    writer_after_fork_child();
    reset_threads_after_fork(t_state);
  } else if (t_state) {
    t_state->next_id = t_state->id_end = 0;
  }
}

void shutdown_at_exit() { shutdown(); }

int parse_mode(const char* text) {
  if (!text || !*text || std::strcmp(text, "off") == 0) return JB_MODE_OFF;
  if (std::strcmp(text, "no-consumer") == 0) return JB_MODE_NO_CONSUMER;
  if (std::strcmp(text, "light") == 0) return JB_MODE_LIGHT;
  if (std::strcmp(text, "full") == 0) return JB_MODE_FULL;
  return -1;
}

// Opens the raw file (it must not exist: one file, one writer tree) and writes its header.
int open_output(const char* path) {
  const char* env_boot = std::getenv("JBENCH_BOOT_ID");
  char boot[64] = "";
  if (env_boot && *env_boot) {
    g_process.boot_id = env_boot;
  } else if (read_boot_id(boot, sizeof boot)) {
    g_process.boot_id = boot;
  }
  const char* run = std::getenv("JBENCH_RUN_ID");
  g_process.run_id = run ? run : "";
  void* page = ::mmap(nullptr, sizeof(SharedTotals), PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) {
    complain("cannot map the shared totals", std::strerror(errno));
    return JB_ERR_RESOURCE;
  }
  g_process.totals = new (page) SharedTotals{};
  g_process.fd = ::open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
  if (g_process.fd < 0) {
    const int err = errno;
    std::fprintf(stderr, "jbench bridge: cannot create %s: %s; the bridge stays off\n", path,
                 std::strerror(err));
    return JB_ERR_OPEN;
  }
  std::string header;
  append_header(header, g_process.run_id, g_process.boot_id);
  if (!write_all(g_process.fd, header)) {
    complain("cannot write the header", std::strerror(errno));
    ::close(g_process.fd);
    g_process.fd = -1;
    return JB_ERR_OPEN;
  }
  g_process.owner = true;
  return 0;
}

int init_checked() {
  if (g_process.initialised) return JB_ERR_ALREADY;
  g_process.initialised = true;
  const int mode = parse_mode(std::getenv("JBENCH_BRIDGE_MODE"));
  if (mode < 0) {
    complain("JBENCH_BRIDGE_MODE must be off, no-consumer, light or full, not",
             std::getenv("JBENCH_BRIDGE_MODE"));
    return JB_ERR_BAD_MODE;
  }
  if (mode == JB_MODE_OFF) return 0;
  g_process.pid = ::getpid();
  if (!read_start_time_ticks(g_process.start_time_ticks) ||
      !random_bytes(g_process.runtime_id, sizeof g_process.runtime_id)) {
    complain("cannot read this process's start time (/proc/self/stat) or the random source",
             nullptr);
    return JB_ERR_RESOURCE;
  }
  if (mode >= JB_MODE_LIGHT) {
    const char* out = std::getenv("JBENCH_BRIDGE_OUT");
    if (!out || !*out) {
      complain("modes light and full need JBENCH_BRIDGE_OUT", nullptr);
      return JB_ERR_NO_OUT;
    }
    g_process.ring_slots = ring_slots(std::getenv("JBENCH_BRIDGE_BUFFER"));
    if (const int rc = open_output(out)) return rc;
    g_process.recording = true;
    prepare_spare_ring();  // the first recording thread's ring, faulted in here, not at its event
    if (!ensure_writer()) {
      // Still correct, only not continuous: rings are drained at fork and at shutdown.
      std::fprintf(stderr,
                   "jbench bridge: cannot start the writer thread; events are written "
                   "at fork and at exit only\n");
    }
    std::atexit(shutdown_at_exit);
  }
  pthread_atfork(before_fork, after_fork_parent, after_fork_child);
  g_mode.store(mode, std::memory_order_release);
  return 0;
}

}  // namespace

std::uint64_t next_canary() noexcept {
  return g_process.canaries.fetch_add(1, std::memory_order_relaxed);
}

const std::uint8_t* runtime_id() noexcept { return g_process.runtime_id; }

int init_from_env() noexcept {
  try {
    return init_checked();
  } catch (...) {
    complain("out of memory during initialisation", nullptr);
    return JB_ERR_RESOURCE;
  }
}

void shutdown() noexcept {
  g_mode.store(JB_MODE_OFF);
  if (!g_process.recording || g_process.shut_down.exchange(true)) return;
  stop_writer();
  drain_all(true);
  g_process.totals->dropped.fetch_add(g_process.unbuffered_drops.exchange(0));
  if (g_process.owner) {
    try {
      std::string trailer;
      append_trailer(trailer, g_process.totals->records.load(), g_process.totals->dropped.load());
      if (!write_all(g_process.fd, trailer)) {
        complain("cannot write the trailer", std::strerror(errno));
      }
    } catch (...) {
      complain("out of memory while writing the trailer", nullptr);
    }
  }
  ::close(g_process.fd);
  g_process.fd = -1;
}

}  // namespace jb_detail
