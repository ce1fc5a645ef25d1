// The jb_* entry points. Each one: (1) returns at once while the bridge is off — one predictable
// branch on g_mode, before any register is saved (the work is in a separate function); (2) fires
// its USDT probe only if a tracer enabled it (the semaphore test JBENCH_*_ENABLED()), so argument
// set-up costs nothing otherwise; (3) records an event in the thread's ring when the mode asks.
//
// The generated probe header must come before anything that includes <sys/sdt.h>: it defines
// _SDT_HAS_SEMAPHORES, without which the notes record semaphore 0 and the probes can never be
// enabled (/work/shared/DEPENDENCIES.md). Its semaphores are hidden, so testing one is a single
// load, also in the shared library.
#pragma GCC visibility push(hidden)
#include "jbench_probes.h"
#pragma GCC visibility pop
// (the probe header stays first)
#pragma GCC visibility push(default)
#include "jbench_bridge.h"
#pragma GCC visibility pop
#include "instruction_count.h"
#include "process_state.h"
#include "recorder.h"
#include "thread_state.h"
#include "traceparent.h"

namespace {

// The ABI version as an ELF note (owner "jbench", type 1, desc = major, minor), so `jbench
// probes` can tell which contract a binary was built against without running it. `used` keeps it
// in every binary that links this object, static or shared.
struct AbiNote {
  uint32_t namesz, descsz, type;
  char name[8];
  uint32_t major, minor;
};
[[gnu::used, gnu::section(".note.jbench.abi"), gnu::aligned(4)]] const AbiNote kAbiNote = {
    7, 8, 1, "jbench", JB_ABI_VERSION_MAJOR, JB_ABI_VERSION_MINOR};

using jb_detail::bridge_off;
using jb_detail::current_mode;
using jb_detail::EventType;
using jb_detail::ThreadState;

// Light keeps the low-rate events; full keeps everything.
bool records_all(int mode) { return mode == JB_MODE_FULL; }
bool records_low_rate(int mode) { return mode >= JB_MODE_LIGHT; }

// Records in the calling thread's ring; a thread whose state cannot be made (out of memory)
// loses the event, counted.
void record(EventType type, std::uint64_t a, std::uint64_t b, const char* name) {
  if (ThreadState* s = jb_detail::this_thread()) {
    jb_detail::record(*s, type, a, b, name);
  } else {
    jb_detail::g_process.unbuffered_drops.fetch_add(1, std::memory_order_relaxed);
  }
}

// Recording is a tail call, after the thread's own bookkeeping: the paths that do not record
// (no-consumer) then need no saved registers.
[[gnu::noinline]] uint64_t record_span_begin(ThreadState& s, uint64_t span, uint64_t parent,
                                             const char* name) {
  jb_detail::record(s, EventType::span_begin, span, parent, name);
  return span;
}

[[gnu::noinline]] void record_span_end(ThreadState& s, uint64_t span) {
  jb_detail::record(s, EventType::span_end, span, 0, nullptr);
}

// Without a thread state (out of memory): an id, the probe, a counted drop; no context.
[[gnu::noinline]] uint64_t span_begin_stateless(int mode, const char* name, uint64_t parent) {
  const uint64_t span = jb_detail::shared_span_id();
  if (JBENCH_SPAN_BEGIN_ENABLED()) JBENCH_SPAN_BEGIN(span, parent, name ? name : "");
  if (records_low_rate(mode)) record(EventType::span_begin, span, parent, name);
  return span;
}

uint64_t span_begin_on(int mode, const char* name, uint64_t parent);

// A thread's first span, or the first after its block of ids ran out: the state or the ids are
// made here, so the common path calls nothing before it records.
[[gnu::noinline, gnu::cold]] uint64_t span_begin_cold(int mode, const char* name, uint64_t parent) {
  ThreadState* s = jb_detail::this_thread();
  if (!s) return span_begin_stateless(mode, name, parent);
  if (s->next_id == s->id_end) jb_detail::refill_span_ids(*s);
  return span_begin_on(mode, name, parent);
}

[[gnu::noinline]] uint64_t span_begin_on(int mode, const char* name, uint64_t parent) {
  ThreadState* s = jb_detail::t_state;
  if (__builtin_expect(!s || s->next_id == s->id_end, 0)) {
    return span_begin_cold(mode, name, parent);
  }
  if (parent == 0) parent = s->spans.current();
  const uint64_t span = s->next_id++;
  s->spans.push(span);
  if (JBENCH_SPAN_BEGIN_ENABLED()) JBENCH_SPAN_BEGIN(span, parent, name ? name : "");
  if (records_low_rate(mode)) return record_span_begin(*s, span, parent, name);
  return span;
}

[[gnu::noinline, gnu::cold]] void span_end_unattached(int mode, uint64_t span) {
  if (records_low_rate(mode)) record(EventType::span_end, span, 0, nullptr);
}

[[gnu::noinline]] void span_end_on(int mode, uint64_t span) {
  if (span == 0) return;  // "no span", as jb_span_begin returns it while off
  if (JBENCH_SPAN_END_ENABLED()) JBENCH_SPAN_END(span);
  ThreadState* s = jb_detail::t_state;
  if (__builtin_expect(!s, 0)) return span_end_unattached(mode, span);
  s->spans.pop(span);
  if (records_low_rate(mode)) record_span_end(*s, span);
}

[[gnu::noinline]] void counter_on(int mode, const char* name, int64_t value) {
  if (JBENCH_COUNTER_ENABLED()) JBENCH_COUNTER(name ? name : "", value);
  if (records_all(mode)) record(EventType::counter, 0, static_cast<uint64_t>(value), name);
}

[[gnu::noinline]] void alloc_sample_on(int mode, uint64_t bytes, const char* site) {
  if (JBENCH_ALLOC_SAMPLE_ENABLED()) JBENCH_ALLOC_SAMPLE(bytes, site ? site : "");
  if (records_all(mode)) record(EventType::alloc_sample, bytes, 0, site);
}

}  // namespace

extern "C" {

uint32_t jb_abi_version(void) { return (JB_ABI_VERSION_MAJOR << 16) | JB_ABI_VERSION_MINOR; }

int jb_init_from_env(void) { return jb_detail::init_from_env(); }

int jb_mode(void) { return current_mode(); }

void jb_shutdown(void) { jb_detail::shutdown(); }

void jb_runtime_id(uint8_t out[16]) {
  const bool off = bridge_off(current_mode());
  const uint8_t* id = jb_detail::runtime_id();
  for (int i = 0; i < 16; ++i) out[i] = off ? 0 : id[i];
}

uint64_t jb_span_begin(const char* name, uint64_t parent) {
  const int mode = current_mode();
  if (bridge_off(mode)) return 0;
  return span_begin_on(mode, name, parent);
}

void jb_span_end(uint64_t span_id) {
  const int mode = current_mode();
  if (bridge_off(mode)) return;
  span_end_on(mode, span_id);
}

uint64_t jb_context_capture(void) {
  if (bridge_off(current_mode())) return 0;
  const ThreadState* s = jb_detail::t_state;
  return s ? s->spans.current() : 0;
}

void jb_context_adopt(uint64_t context) {
  if (bridge_off(current_mode())) return;
  if (ThreadState* s = jb_detail::this_thread()) s->spans.adopt(context);
}

int jb_traceparent_format(uint64_t span, char* buf, size_t len) {
  if (bridge_off(current_mode())) {
    if (buf && len > 0) buf[0] = '\0';
    return -1;
  }
  return jb_detail::format_traceparent(jb_detail::runtime_id(), span, buf, len);
}

int jb_traceparent_parse(const char* traceparent, uint64_t* span) {
  uint64_t parsed = 0;
  if (!span || jb_detail::parse_traceparent(traceparent, parsed) != 0) return -1;
  *span = parsed;
  return 0;
}

void jb_counter(const char* name, int64_t value) {
  const int mode = current_mode();
  if (bridge_off(mode)) return;
  counter_on(mode, name, value);
}

void jb_gc_begin(uint32_t generation, uint64_t bytes_before) {
  const int mode = current_mode();
  if (bridge_off(mode)) return;
  if (JBENCH_GC_BEGIN_ENABLED()) JBENCH_GC_BEGIN(generation, bytes_before);
  if (records_low_rate(mode)) record(EventType::gc_begin, generation, bytes_before, nullptr);
}

void jb_gc_end(uint32_t generation, uint64_t bytes_after) {
  const int mode = current_mode();
  if (bridge_off(mode)) return;
  if (JBENCH_GC_END_ENABLED()) JBENCH_GC_END(generation, bytes_after);
  if (records_low_rate(mode)) record(EventType::gc_end, generation, bytes_after, nullptr);
}

void jb_alloc_sample(uint64_t bytes, const char* site) {
  const int mode = current_mode();
  if (bridge_off(mode)) return;
  alloc_sample_on(mode, bytes, site);
}

void jb_phase(const char* name) {
  jb_detail::count_phase(name);
  const int mode = current_mode();
  if (bridge_off(mode)) return;
  if (JBENCH_PHASE_ENABLED()) JBENCH_PHASE(name ? name : "");
  if (records_low_rate(mode)) record(EventType::phase, 0, 0, name);
}

void jb_canary(void) {
  const int mode = current_mode();
  if (bridge_off(mode)) return;
  const uint64_t n = jb_detail::next_canary();
  if (JBENCH_CANARY_ENABLED()) JBENCH_CANARY(n);
  if (records_low_rate(mode)) record(EventType::canary, n, 0, nullptr);
}

}  // extern "C"
