// The library's life in a process: configure at load, follow forks, write the file at exit.
//
//   load (constructor)   read the settings, claim the file, map the buffer, start sampling
//   fork (child handler) a new incarnation: claim <out>.<pid>, empty buffer, new seed
//   exit (destructor)    stop sampling, write the samples, the summary and the trailer
//   _exit / _Exit        the same, first: forked children often leave through _exit
//
// Exit paths that run no code here (a fatal signal, exec without fork, an _exit made inside
// glibc) leave the header without a trailer: an incomplete file, which the checker refuses.
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

#include "event_writer.h"
#include "output_file.h"
#include "process_identity.h"
#include "real_allocator.h"
#include "sample_buffer.h"
#include "sampler.h"
#include "settings.h"

namespace jb_alloc {
namespace {

Settings g_settings;
SampleBuffer g_buffer;
OutputFile g_file;
FileFacts g_facts;
// True from a successful claim to the written trailer: only then is there a file to finish.
std::atomic<bool> g_recording{false};
// One writer per process: the first of exit, _exit or a racing thread's _exit wins.
std::atomic<bool> g_finishing{false};
// Forks so far in this process: a child's seed derives from its parent's seed and this number,
// so a program that forks in a fixed order samples its children reproducibly too.
std::uint64_t g_forks = 0;

void report(const char* line) { write_stderr(line); }

// Writes a trailer saying why nothing will be sampled, and stays inert.
void fail_claimed_file(int code, const char* reason) {
  char why[512];
  const int fd = reopen_output(g_file, why, sizeof why);
  if (fd < 0) {
    report(why);
    return;
  }
  LineWriter w(fd);
  write_failure_trailer(w, code, reason);
  w.flush();
  ::close(fd);
  report("jbench-alloc: ");
  report(reason);
  report("; nothing is sampled\n");
}

void finish() {
  if (!g_recording.load(std::memory_order_acquire)) return;
  // A vfork child, or a clone without fork handlers, shares or copies this state but is not
  // the incarnation that owns it.
  if (current_pid() != g_facts.self.pid) return;
  if (g_finishing.exchange(true, std::memory_order_acq_rel)) return;
  sampler_stop();
  const ClosedBuffer closed = g_buffer.close();
  char why[512];
  const int fd = reopen_output(g_file, why, sizeof why);
  if (fd < 0) {
    report(why);
  } else {
    LineWriter w(fd);
    write_body(w, g_facts, g_buffer, closed);
    if (!w.flush()) {
      report("jbench-alloc: cannot write the samples to ");
      report(g_file.path);
      report(": the file has no trailer\n");
    }
    ::close(fd);
  }
  g_recording.store(false, std::memory_order_release);
}

void before_fork() { ++g_forks; }

void in_fork_child() {
  if (!g_recording.load(std::memory_order_acquire)) return;
  g_recording.store(false, std::memory_order_relaxed);
  g_finishing.store(false, std::memory_order_relaxed);
  // Stopped until the child owns a file and an empty buffer; for good if it cannot claim one.
  sampler_stop();
  g_facts.ppid = g_facts.self.pid;
  g_facts.self = current_incarnation();
  g_facts.origin = "fork";
  g_facts.seed = mix_seed(g_facts.seed, g_forks);
  g_forks = 0;
  char why[512];
  if (!claim_output(g_facts, g_file, why, sizeof why)) {
    report(why);
    return;
  }
  g_buffer.reset_after_fork();
  g_recording.store(true, std::memory_order_release);
  sampler_after_fork_child(g_facts.seed);
}

void configure() {
  read_settings(g_settings);
  if (!g_settings.requested) {
    sampler_stop();  // inert: every thread leaves the slow path at its first sample point
    return;
  }
  g_facts.settings = &g_settings;
  g_facts.self = current_incarnation();
  g_facts.ppid = parent_pid();
  g_facts.origin = "start";
  g_facts.seed = g_settings.seed;
  if (!g_settings.seed_given && !random_u64(g_facts.seed)) {
    g_facts.seed = mix_seed(monotonic_ns(), static_cast<std::uint64_t>(g_facts.self.pid));
  }
  char why[512];
  if (!claim_output(g_facts, g_file, why, sizeof why)) {
    sampler_stop();
    report(why);
    return;
  }
  if (g_settings.error[0]) {
    sampler_stop();
    fail_claimed_file(2, g_settings.error);
    return;
  }
  if (!g_buffer.map(g_settings.buffer_samples)) {
    sampler_stop();
    fail_claimed_file(3, "cannot map the sample buffer (mmap refused)");
    return;
  }
  // May allocate: the hooks are live but sampling is still pending, so nothing recurses.
  if (::pthread_atfork(&before_fork, nullptr, &in_fork_child) != 0) {
    sampler_stop();
    fail_claimed_file(3, "cannot register the fork handlers (pthread_atfork)");
    return;
  }
  g_recording.store(true, std::memory_order_release);
  sampler_start(g_settings.mean_bytes, g_facts.seed, &g_buffer);
}

// The loader runs this after libc is initialised and before the program's own constructors and
// main. Libraries initialised earlier may allocate before sampling starts: not sampled.
__attribute__((constructor)) void on_load() {
  resolve_real_allocator();
  configure();
}

// Destructors run after the program's atexit handlers and static destructors (exit() calls the
// loader's finaliser last, and this library, initialised early, is finalised late), so their
// allocations are in the file too.
__attribute__((destructor)) void on_unload() { finish(); }

[[noreturn]] void exit_now(int status) {
  finish();
  jb_platform_exit_process(status);  // not _exit: that is ours, below
}

}  // namespace
}  // namespace jb_alloc

// _exit and _Exit end the process without running destructors: the file is written first.
// glibc's own internal calls to _exit (after exit() ran the destructors) do not come here.
extern "C" __attribute__((visibility("default"), noreturn)) void _exit(int status) {
  jb_alloc::exit_now(status);
}
extern "C" __attribute__((visibility("default"), noreturn)) void _Exit(int status) noexcept {
  jb_alloc::exit_now(status);
}
