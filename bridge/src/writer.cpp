#include "writer.h"

#include <jb_events_writer_thread.h>
#include <jb_platform.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <unordered_map>

#include "event_json.h"
#include "process_state.h"
#include "thread_state.h"

namespace jb_detail {
namespace {

// How often the writer drains without being asked. A ring of the default 16384 slots then holds
// 1.6 M events/s per thread before it fills between two passes; a half-full ring asks sooner.
constexpr std::chrono::milliseconds kWriterPeriod{10};
constexpr std::size_t kWriteChunk = 64 * 1024;
constexpr std::size_t kMaxLine = 4096;  // a record is under 1 KiB, even with every byte escaped

pthread_mutex_t g_drain_lock = PTHREAD_MUTEX_INITIALIZER;  // one pass at a time
pthread_mutex_t g_start_lock = PTHREAD_MUTEX_INITIALIZER;  // starting and stopping the thread
pthread_t g_writer;
bool g_writer_running = false;    // under g_start_lock
std::atomic<bool> g_stop{false};  // the writer thread ends at its next wake-up
std::atomic<bool> g_hold{false};  // hold_writer
std::atomic<int> g_wake{0};       // the word the writer waits on: 1 = a pass is requested
// A pass's buffers, made once with all the capacity a pass needs, so encoding never allocates.
struct PassBuffers {
  std::string text;    // lines not yet written
  std::string stream;  // the current stream's fields
};
PassBuffers* g_buffers = nullptr;  // under g_drain_lock
// The next seq of streams whose thread exited, by tid (under g_drain_lock). The kernel reuses
// thread ids once its pid counter wraps (pid_max, 32768 on many hosts); a new thread that gets
// an old id continues that stream, since (pid, start time, tid) names a stream in the file.
std::unordered_map<std::int64_t, std::uint64_t>* g_ended_streams = nullptr;

int* wake_word() { return reinterpret_cast<int*>(&g_wake); }

// The lines of one pass, written in chunks of whole lines. What the file refuses is dropped.
class Output {
 public:
  explicit Output(std::string& text) : text_(text) { text_.clear(); }
  ~Output() { flush(); }
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;

  std::string& text() { return text_; }
  void line_added() {
    ++lines_;
    if (text_.size() >= kWriteChunk) flush();
  }
  void flush() {
    if (lines_ == 0) return;
    const bool ok = g_process.fd >= 0 && write_all(g_process.fd, text_);
    (ok ? g_process.totals->records : g_process.totals->dropped).fetch_add(lines_);
    text_.clear();
    lines_ = 0;
  }

 private:
  std::string& text_;
  std::uint64_t lines_ = 0;
};

void remember_ended_stream(std::int64_t tid, std::uint64_t next_seq) {
  try {
    if (!g_ended_streams) g_ended_streams = new std::unordered_map<std::int64_t, std::uint64_t>;
    (*g_ended_streams)[tid] = next_seq;
  } catch (...) {
    // Out of memory: only a reused thread id would then restart its stream's seq.
  }
}

void write_overflow(Output& out, ThreadState& s, std::string_view stream, std::uint64_t lost,
                    std::uint64_t t_ns) {
  Event e;
  e.type = EventType::overflow;
  e.a = lost;
  e.t_ns = t_ns;
  append_record(out.text(), e, s.cursor.seq++, stream);
  s.cursor.drops_written += lost;
  s.cursor.last_t_ns = t_ns;
  g_process.totals->dropped.fetch_add(lost);
  out.line_added();
}

// Writes the stream's published events, each preceded by an overflow record where the stream's
// drop count changed. `final` (or a thread that has exited) also reports drops no event followed.
void drain_stream(ThreadState& s, bool final, Output& out, std::string& stream) {
  const int status = s.status.load(std::memory_order_acquire);
  if (status != kOwned && status != kExited) return;
  StreamCursor& c = s.cursor;
  const std::uint64_t head = s.head.load(std::memory_order_acquire);
  const std::uint64_t tail = s.tail.load(std::memory_order_relaxed);
  const bool report_drops = final || status == kExited;
  if (head == tail && !report_drops) return;
  if (!c.started) {
    c.started = true;
    if (g_ended_streams) {
      if (const auto it = g_ended_streams->find(s.tid); it != g_ended_streams->end()) {
        c.seq = it->second;
        g_ended_streams->erase(it);
      }
    }
  }
  stream.clear();
  append_stream_fields(stream, Stream{g_process.pid, g_process.start_time_ticks, s.tid});
  // The ring (slots, capacity) is known once the producer has published into it.
  const std::uint64_t mask = head > tail ? s.capacity - 1 : 0;
  Event e;
  for (std::uint64_t i = tail; i < head;) {
    const Slot& slot = s.slots[i & mask];
    if (slot.drop_mark != c.last_mark) {
      write_overflow(out, s, stream, static_cast<std::uint32_t>(slot.drop_mark - c.last_mark),
                     slot.t_ns);
      c.last_mark = slot.drop_mark;
    }
    e.t_ns = slot.t_ns;
    e.a = slot.a;
    e.b = slot.b;
    e.type = slot.type;
    const std::size_t n = slot.name_len;
    std::memcpy(e.name, slot.name, n < kInlineName ? n : kInlineName);
    if (n > kInlineName) {
      std::memcpy(e.name + kInlineName, &s.slots[(i + 1) & mask], n - kInlineName);
    }
    e.name[n] = '\0';
    i += slots_for(n);
    append_record(out.text(), e, c.seq++, stream);
    c.last_t_ns = e.t_ns;
    out.line_added();
  }
  s.tail.store(head, std::memory_order_release);
  if (report_drops) {
    const std::uint64_t dropped = s.dropped.load(std::memory_order_relaxed);
    if (dropped > c.drops_written) {
      write_overflow(out, s, stream, dropped - c.drops_written,
                     c.seq > 0 ? c.last_t_ns : monotonic_ns());
    }
  }
  if (status == kExited) {
    remember_ended_stream(s.tid, c.seq);
    // Empty and ownerless: ready for the next new thread, ring and all.
    s.cursor = StreamCursor{};
    s.dropped.store(0, std::memory_order_relaxed);
    s.status.store(kFree, std::memory_order_release);
  }
}

// Makes the pass buffers on first use; false if out of memory (the events then wait in their
// rings, dropping when full).
bool have_buffers() {
  if (g_buffers) return true;
  try {
    auto* b = new PassBuffers;
    b->text.reserve(kWriteChunk + kMaxLine);
    b->stream.reserve(kMaxLine);
    g_buffers = b;
    return true;
  } catch (...) {
    return false;
  }
}

void drain_locked(bool final) {
  if (!have_buffers()) return;
  Output out(g_buffers->text);
  for (ThreadState* s = first_thread_state(); s; s = s->next) {
    drain_stream(*s, final, out, g_buffers->stream);
  }
}

void* writer_main(void*) {
  const std::int64_t period_ns = std::chrono::nanoseconds(kWriterPeriod).count();
  const timespec period{0, period_ns};
  while (!g_stop.load(std::memory_order_acquire)) {
    if (g_hold.load(std::memory_order_relaxed)) {
      ::nanosleep(&period,
                  nullptr);  // not the wake word: requests keep coming while rings are full
      continue;
    }
    jb_platform_wait_word(wake_word(), 0, period_ns);
    g_wake.store(0, std::memory_order_relaxed);
    if (g_stop.load(std::memory_order_acquire)) break;
    pthread_mutex_lock(&g_drain_lock);
    drain_locked(false);
    pthread_mutex_unlock(&g_drain_lock);
    prepare_spare_ring();
  }
  return nullptr;
}

}  // namespace

bool ensure_writer() noexcept {
  pthread_mutex_lock(&g_start_lock);
  if (!g_writer_running && !g_process.shut_down.load()) {
    // The writer must not take the target's signals: it starts with all of them blocked.
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    g_stop.store(false);
    g_writer_running = pthread_create(&g_writer, nullptr, writer_main, nullptr) == 0;
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    if (g_writer_running) jb_platform_name_thread(g_writer, JB_EVENTS_WRITER_THREAD_NAME);
  }
  const bool running = g_writer_running;
  pthread_mutex_unlock(&g_start_lock);
  return running;
}

void wake_writer() noexcept {
  if (g_wake.load(std::memory_order_relaxed) == 0 && g_wake.exchange(1) == 0) {
    jb_platform_wake_word(wake_word());
  }
}

void stop_writer() noexcept {
  pthread_mutex_lock(&g_start_lock);
  if (g_writer_running) {
    g_stop.store(true, std::memory_order_release);
    g_wake.store(1);
    jb_platform_wake_word(wake_word());
    pthread_join(g_writer, nullptr);
    g_writer_running = false;
  }
  pthread_mutex_unlock(&g_start_lock);
}

void drain_all(bool final) noexcept {
  pthread_mutex_lock(&g_drain_lock);
  drain_locked(final);
  pthread_mutex_unlock(&g_drain_lock);
}

void drain_exited(ThreadState& s) noexcept {
  pthread_mutex_lock(&g_drain_lock);
  if (have_buffers()) {
    Output out(g_buffers->text);
    drain_stream(s, false, out, g_buffers->stream);
  }
  pthread_mutex_unlock(&g_drain_lock);
}

void writer_before_fork() noexcept {
  pthread_mutex_lock(&g_start_lock);
  pthread_mutex_lock(&g_drain_lock);
  // Everything recorded before the fork is in the file before the child can add to it.
  drain_locked(false);
}

void writer_after_fork_parent() noexcept {
  pthread_mutex_unlock(&g_drain_lock);
  pthread_mutex_unlock(&g_start_lock);
}

void writer_after_fork_child() noexcept {
  g_ended_streams = nullptr;  // a new incarnation: its streams are all new (the copy is left)
  g_drain_lock = PTHREAD_MUTEX_INITIALIZER;
  g_start_lock = PTHREAD_MUTEX_INITIALIZER;
  g_writer_running = false;
  g_stop.store(false);
  g_hold.store(false);
  g_wake.store(0);
}

void hold_writer(bool hold) noexcept { g_hold.store(hold); }

bool write_all(int fd, const std::string& text) noexcept {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace jb_detail
