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
#include <vector>

#include "event_json.h"
#include "jbench_bridge.h"
#include "process_info.h"

namespace jb_detail {

std::atomic<int> g_mode{JB_MODE_OFF};

namespace {

constexpr std::uint32_t kDefaultCapacity = 16384;
constexpr std::uint64_t kPidBits = 22;  // Linux pid_max is at most 2^22
constexpr std::uint64_t kCounterBits = 64 - kPidBits;
constexpr std::size_t kWriteChunk = 64 * 1024;

// Totals of every process writing to the file (the creator and its forked children), in a
// MAP_SHARED page so the creator's trailer counts its children's records and drops too.
struct SharedTotals {
  std::atomic<std::uint64_t> records;
  std::atomic<std::uint64_t> dropped;
};

// One thread's events. Only the owning thread appends (count is its release-published length);
// the flusher reads [flushed, count) under g_lock. The buffer never wraps, so an event's index
// is its seq and a published slot never changes.
struct ThreadBuffer {
  std::int64_t tid = 0;
  std::uint32_t capacity = 0;
  Event* events = nullptr;
  std::atomic<std::uint64_t> count{0};
  std::atomic<std::uint64_t> dropped{0};
  std::uint64_t flushed = 0;  // under g_lock
  ThreadBuffer* next = nullptr;
};

struct ProcessState {
  bool initialised = false;  // jb_init_from_env ran (whatever it found)
  bool owner = false;        // this process created the file and writes the trailer
  int fd = -1;
  std::int64_t pid = 0;
  std::uint64_t start_time_ticks = 0;
  std::uint32_t capacity = kDefaultCapacity;
  std::string run_id;
  std::string boot_id;
  std::uint8_t runtime_id[16] = {};
  SharedTotals* totals = nullptr;
  std::atomic<std::uint64_t> span_counter{0};
  std::atomic<std::uint64_t> canaries{0};
  std::atomic<std::uint64_t> unbuffered_drops{0};  // a thread's buffer could not be allocated
};

ProcessState g_state;
pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
ThreadBuffer* g_buffers = nullptr;  // under g_lock
// Bumped in a forked child so every thread-local buffer pointer inherited from the parent is
// seen as stale and the child starts fresh streams (new pid, seq from 0).
std::atomic<std::uint64_t> g_generation{1};

thread_local ThreadBuffer* t_buffer = nullptr;
thread_local std::uint64_t t_generation = 0;

void complain(const char* what, const char* detail) {
  std::fprintf(stderr, "jbench bridge: %s%s%s; the bridge stays off\n", what, detail ? ": " : "",
               detail ? detail : "");
}

ThreadBuffer* register_thread() noexcept {
  auto* b = new (std::nothrow) ThreadBuffer;
  if (!b) return nullptr;
  b->capacity = g_state.capacity;
  b->events = static_cast<Event*>(std::malloc(sizeof(Event) * b->capacity));
  if (!b->events) {
    delete b;
    return nullptr;
  }
  b->tid = current_tid();
  pthread_mutex_lock(&g_lock);
  b->next = g_buffers;
  g_buffers = b;
  pthread_mutex_unlock(&g_lock);
  t_buffer = b;
  t_generation = g_generation.load(std::memory_order_relaxed);
  return b;
}

// Writes all of `text` (whole lines) with O_APPEND; false if the file refused.
bool write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

struct Pending {
  const ThreadBuffer* buffer;
  std::uint64_t seq;
  const Event* event;
};

// Writes every published, unwritten event of every thread, merged by time: a span adopted on
// another thread began later than its parent, so time order keeps parents before children in
// the file. With `final`, also one overflow record per stream that dropped, and the drops are
// added to the shared totals. Caller holds g_lock.
void flush_locked(bool final) {
  if (g_state.fd < 0) return;
  std::vector<Pending> pending;
  std::vector<Event> overflows;  // stable storage for the synthesized overflow records
  std::uint64_t dropped = 0;
  for (ThreadBuffer* b = g_buffers; b; b = b->next) {
    const std::uint64_t end = b->count.load(std::memory_order_acquire);
    for (std::uint64_t i = b->flushed; i < end; ++i) pending.push_back({b, i, &b->events[i]});
    b->flushed = end;
    if (final) dropped += b->dropped.load(std::memory_order_relaxed);
  }
  if (final) {
    for (ThreadBuffer* b = g_buffers; b; b = b->next) {
      if (b->dropped.load(std::memory_order_relaxed) > 0) overflows.push_back({});
    }
  }
  std::stable_sort(pending.begin(), pending.end(), [](const Pending& x, const Pending& y) {
    return x.event->t_ns < y.event->t_ns;
  });
  if (final) {
    std::size_t k = 0;
    for (ThreadBuffer* b = g_buffers; b; b = b->next) {
      const std::uint64_t lost = b->dropped.load(std::memory_order_relaxed);
      if (lost == 0) continue;
      Event& e = overflows[k++];
      e.type = EventType::overflow;
      e.a = lost;
      e.t_ns = b->flushed > 0 ? b->events[b->flushed - 1].t_ns : 0;
      // Seq continues the stream: every slot of a full buffer was written.
      pending.push_back({b, b->flushed, &e});
    }
    dropped += g_state.unbuffered_drops.exchange(0);
  }
  std::string text;
  std::uint64_t lines = 0;
  std::uint64_t lost = 0;
  const auto write_text = [&] {
    if (!write_all(g_state.fd, text)) lost += lines;  // what the file refused is dropped
    text.clear();
    lines = 0;
  };
  std::uint64_t written = 0;
  for (const Pending& p : pending) {
    append_record(text, *p.event, p.seq,
                  Stream{g_state.pid, g_state.start_time_ticks, p.buffer->tid});
    ++lines;
    ++written;
    if (text.size() >= kWriteChunk) write_text();
  }
  write_text();
  g_state.totals->records.fetch_add(written - lost);
  g_state.totals->dropped.fetch_add(dropped + lost);
}

void before_fork() {
  pthread_mutex_lock(&g_lock);
  if (g_mode.load() >= JB_MODE_LIGHT) flush_locked(false);
}

void after_fork_parent() { pthread_mutex_unlock(&g_lock); }

// The child is a new incarnation: new pid and start time, fresh streams, no trailer of its own.
// Only the forking thread exists here; the parent's buffers were flushed in before_fork and are
// abandoned (copy-on-write pages, never touched).
void after_fork_child() {
  g_lock = PTHREAD_MUTEX_INITIALIZER;
  g_buffers = nullptr;
  g_generation.fetch_add(1);
  g_state.owner = false;
  g_state.pid = ::getpid();
  g_state.canaries.store(0);
  if (!read_start_time_ticks(g_state.start_time_ticks)) g_mode.store(JB_MODE_OFF);
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
    g_state.boot_id = env_boot;
  } else if (read_boot_id(boot, sizeof boot)) {
    g_state.boot_id = boot;
  }
  const char* run = std::getenv("JBENCH_RUN_ID");
  g_state.run_id = run ? run : "";
  void* page = ::mmap(nullptr, sizeof(SharedTotals), PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) {
    complain("cannot map the shared totals", std::strerror(errno));
    return JB_ERR_RESOURCE;
  }
  g_state.totals = new (page) SharedTotals{};
  g_state.fd = ::open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
  if (g_state.fd < 0) {
    const int err = errno;
    std::fprintf(stderr, "jbench bridge: cannot create %s: %s; the bridge stays off\n", path,
                 std::strerror(err));
    return JB_ERR_OPEN;
  }
  std::string header;
  append_header(header, g_state.run_id, g_state.boot_id);
  if (!write_all(g_state.fd, header)) {
    complain("cannot write the header", std::strerror(errno));
    ::close(g_state.fd);
    g_state.fd = -1;
    return JB_ERR_OPEN;
  }
  g_state.owner = true;
  return 0;
}

int init_checked() {
  if (g_state.initialised) return JB_ERR_ALREADY;
  g_state.initialised = true;
  const int mode = parse_mode(std::getenv("JBENCH_BRIDGE_MODE"));
  if (mode < 0) {
    complain("JBENCH_BRIDGE_MODE must be off, no-consumer, light or full, not",
             std::getenv("JBENCH_BRIDGE_MODE"));
    return JB_ERR_BAD_MODE;
  }
  if (mode == JB_MODE_OFF) return 0;
  g_state.pid = ::getpid();
  if (!read_start_time_ticks(g_state.start_time_ticks) ||
      !random_bytes(g_state.runtime_id, sizeof g_state.runtime_id)) {
    complain("cannot read /proc/self/stat or the random source", nullptr);
    return JB_ERR_RESOURCE;
  }
  if (mode >= JB_MODE_LIGHT) {
    const char* out = std::getenv("JBENCH_BRIDGE_OUT");
    if (!out || !*out) {
      complain("modes light and full need JBENCH_BRIDGE_OUT", nullptr);
      return JB_ERR_NO_OUT;
    }
    if (const char* cap = std::getenv("JBENCH_BRIDGE_BUFFER")) {
      const unsigned long v = std::strtoul(cap, nullptr, 10);
      g_state.capacity = v == 0 ? 1 : static_cast<std::uint32_t>(std::min(v, 1ul << 24));
    }
    if (const int rc = open_output(out)) return rc;
    pthread_atfork(before_fork, after_fork_parent, after_fork_child);
    std::atexit(shutdown_at_exit);
  }
  g_mode.store(mode, std::memory_order_release);
  return 0;
}

}  // namespace

void record(EventType type, std::uint64_t a, std::uint64_t b, const char* name) noexcept {
  ThreadBuffer* buf = t_buffer;
  if (__builtin_expect(!buf || t_generation != g_generation.load(std::memory_order_relaxed), 0)) {
    buf = register_thread();
    if (!buf) {
      g_state.unbuffered_drops.fetch_add(1, std::memory_order_relaxed);
      return;
    }
  }
  const std::uint64_t i = buf->count.load(std::memory_order_relaxed);
  if (i >= buf->capacity) {
    // Only this thread writes the counter: no read-modify-write needed.
    buf->dropped.store(buf->dropped.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    return;
  }
  Event& e = buf->events[i];
  e.t_ns = monotonic_ns();
  e.a = a;
  e.b = b;
  e.type = type;
  if (name) {
    copy_name(e.name, name);
  } else {
    e.name[0] = '\0';
  }
  buf->count.store(i + 1, std::memory_order_release);
}

std::uint64_t next_span_id() noexcept {
  const std::uint64_t n = g_state.span_counter.fetch_add(1, std::memory_order_relaxed) + 1;
  const auto pid = static_cast<std::uint64_t>(g_state.pid) & ((1ull << kPidBits) - 1);
  return (pid << kCounterBits) | (n & ((1ull << kCounterBits) - 1));
}

std::uint64_t next_canary() noexcept {
  return g_state.canaries.fetch_add(1, std::memory_order_relaxed);
}

const std::uint8_t* runtime_id() noexcept { return g_state.runtime_id; }

int init_from_env() noexcept {
  try {
    return init_checked();
  } catch (...) {
    complain("out of memory during initialisation", nullptr);
    return JB_ERR_RESOURCE;
  }
}

void shutdown() noexcept {
  const int mode = g_mode.exchange(JB_MODE_OFF);
  if (mode < JB_MODE_LIGHT) return;
  pthread_mutex_lock(&g_lock);
  try {
    flush_locked(true);
    if (g_state.owner) {
      std::string trailer;
      append_trailer(trailer, g_state.totals->records.load(), g_state.totals->dropped.load());
      if (!write_all(g_state.fd, trailer))
        complain("cannot write the trailer", std::strerror(errno));
    }
  } catch (...) {
    complain("out of memory while writing the raw file", nullptr);
  }
  ::close(g_state.fd);
  g_state.fd = -1;
  pthread_mutex_unlock(&g_lock);
}

}  // namespace jb_detail
