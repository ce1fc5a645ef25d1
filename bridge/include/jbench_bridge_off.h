/*
 * jbench_bridge_off.h — the trace bridge compiled out. Included by jbench_bridge.h, never
 * directly, when JBENCH_TRACING is defined as 0 (CMake: -DJBENCH_TRACING=OFF).
 *
 * Every jb_* function of jbench_bridge.h becomes a static inline function that does what the
 * library does while its mode is off, so the compiler removes the calls: the program links no
 * bridge, carries no USDT probe and no .note.jbench.abi, and never reads JBENCH_BRIDGE_*. The
 * mode is always JB_MODE_OFF, whatever the environment asks: a program that must trace checks
 * jb_mode() after jb_init_from_env() (the SQLite worker refuses to start when they differ).
 *
 * One difference from the library's off mode: jb_traceparent_parse() parses nothing and returns
 * -1, because a build without spans has no context to adopt.
 */
#ifndef JBENCH_BRIDGE_OFF_H
#define JBENCH_BRIDGE_OFF_H

#ifndef JBENCH_BRIDGE_H
#error "include jbench_bridge.h, not jbench_bridge_off.h"
#endif

static inline uint32_t jb_abi_version(void) {
  return (JB_ABI_VERSION_MAJOR << 16) | JB_ABI_VERSION_MINOR; /* as the library's */
}

static inline int jb_init_from_env(void) { return 0; }

static inline int jb_mode(void) { return JB_MODE_OFF; }

static inline void jb_shutdown(void) {}

static inline void jb_runtime_id(uint8_t out[16]) {
  for (int i = 0; i < 16; ++i) out[i] = 0;
}

static inline uint64_t jb_span_begin(const char* name, uint64_t parent) {
  (void)name;
  (void)parent;
  return 0;
}

static inline void jb_span_end(uint64_t span_id) { (void)span_id; }

static inline uint64_t jb_context_capture(void) { return 0; }

static inline void jb_context_adopt(uint64_t context) { (void)context; }

static inline int jb_traceparent_format(uint64_t span, char* buf, size_t len) {
  (void)span;
  if (buf != NULL && len > 0) buf[0] = '\0';
  return -1;
}

static inline int jb_traceparent_parse(const char* traceparent, uint64_t* span) {
  (void)traceparent;
  (void)span;
  return -1;
}

static inline void jb_counter(const char* name, int64_t value) {
  (void)name;
  (void)value;
}

static inline void jb_gc_begin(uint32_t generation, uint64_t bytes_before) {
  (void)generation;
  (void)bytes_before;
}

static inline void jb_gc_end(uint32_t generation, uint64_t bytes_after) {
  (void)generation;
  (void)bytes_after;
}

static inline void jb_alloc_sample(uint64_t bytes, const char* site) {
  (void)bytes;
  (void)site;
}

static inline void jb_phase(const char* name) { (void)name; }

static inline void jb_canary(void) {}

#endif /* JBENCH_BRIDGE_OFF_H */
