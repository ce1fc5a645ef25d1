// The jb_* entry points. Each one: (1) returns at once while the bridge is off — one predictable
// branch on g_mode; (2) fires its USDT probe only if a tracer enabled it (the semaphore test
// JBENCH_*_ENABLED()), so argument set-up costs nothing otherwise; (3) records an event when the
// mode asks for it.
//
// The generated probe header must come before anything that includes <sys/sdt.h>: it defines
// _SDT_HAS_SEMAPHORES, without which the notes record semaphore 0 and the probes can never be
// enabled (/work/shared/DEPENDENCIES.md).
#include "jbench_probes.h"
// (the probe header stays first)
#include "jbench_bridge.h"
#include "recorder.h"
#include "span_context.h"
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

}  // namespace

using jb_detail::bridge_off;
using jb_detail::EventType;
using jb_detail::records;

extern "C" {

uint32_t jb_abi_version(void) { return (JB_ABI_VERSION_MAJOR << 16) | JB_ABI_VERSION_MINOR; }

int jb_init_from_env(void) { return jb_detail::init_from_env(); }

int jb_mode(void) { return jb_detail::g_mode.load(std::memory_order_relaxed); }

void jb_shutdown(void) { jb_detail::shutdown(); }

void jb_runtime_id(uint8_t out[16]) {
  const bool off = bridge_off();
  const uint8_t* id = jb_detail::runtime_id();
  for (int i = 0; i < 16; ++i) out[i] = off ? 0 : id[i];
}

uint64_t jb_span_begin(const char* name, uint64_t parent) {
  if (bridge_off()) return 0;
  if (parent == 0) parent = jb_detail::current_span();
  const uint64_t span = jb_detail::next_span_id();
  if (JBENCH_SPAN_BEGIN_ENABLED()) JBENCH_SPAN_BEGIN(span, parent, name ? name : "");
  if (records(EventType::span_begin)) jb_detail::record(EventType::span_begin, span, parent, name);
  jb_detail::push_span(span);
  return span;
}

void jb_span_end(uint64_t span_id) {
  if (bridge_off() || span_id == 0) return;
  if (JBENCH_SPAN_END_ENABLED()) JBENCH_SPAN_END(span_id);
  if (records(EventType::span_end)) jb_detail::record(EventType::span_end, span_id, 0, nullptr);
  jb_detail::pop_span(span_id);
}

uint64_t jb_context_capture(void) {
  if (bridge_off()) return 0;
  return jb_detail::current_span();
}

void jb_context_adopt(uint64_t context) {
  if (bridge_off()) return;
  jb_detail::adopt_span(context);
}

int jb_traceparent_format(uint64_t span, char* buf, size_t len) {
  if (bridge_off()) {
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
  if (bridge_off()) return;
  if (JBENCH_COUNTER_ENABLED()) JBENCH_COUNTER(name ? name : "", value);
  if (records(EventType::counter)) {
    jb_detail::record(EventType::counter, 0, static_cast<uint64_t>(value), name);
  }
}

void jb_gc_begin(uint32_t generation, uint64_t bytes_before) {
  if (bridge_off()) return;
  if (JBENCH_GC_BEGIN_ENABLED()) JBENCH_GC_BEGIN(generation, bytes_before);
  if (records(EventType::gc_begin)) {
    jb_detail::record(EventType::gc_begin, generation, bytes_before, nullptr);
  }
}

void jb_gc_end(uint32_t generation, uint64_t bytes_after) {
  if (bridge_off()) return;
  if (JBENCH_GC_END_ENABLED()) JBENCH_GC_END(generation, bytes_after);
  if (records(EventType::gc_end)) {
    jb_detail::record(EventType::gc_end, generation, bytes_after, nullptr);
  }
}

void jb_alloc_sample(uint64_t bytes, const char* site) {
  if (bridge_off()) return;
  if (JBENCH_ALLOC_SAMPLE_ENABLED()) JBENCH_ALLOC_SAMPLE(bytes, site ? site : "");
  if (records(EventType::alloc_sample)) {
    jb_detail::record(EventType::alloc_sample, bytes, 0, site);
  }
}

void jb_phase(const char* name) {
  if (bridge_off()) return;
  if (JBENCH_PHASE_ENABLED()) JBENCH_PHASE(name ? name : "");
  if (records(EventType::phase)) jb_detail::record(EventType::phase, 0, 0, name);
}

void jb_canary(void) {
  if (bridge_off()) return;
  const uint64_t n = jb_detail::next_canary();
  if (JBENCH_CANARY_ENABLED()) JBENCH_CANARY(n);
  if (records(EventType::canary)) jb_detail::record(EventType::canary, n, 0, nullptr);
}

}  // extern "C"
