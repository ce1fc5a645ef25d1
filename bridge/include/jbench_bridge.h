/*
 * jbench_bridge.h — the trace bridge: the C ABI a benchmarked program calls (directly, or through
 * an FFI such as Chez Scheme's foreign-procedure) to report spans, counters, GC pauses,
 * allocation samples, phases and canaries to jbench. docs/bridge.md describes it in full.
 *
 *   jb_init_from_env();                       // reads JBENCH_BRIDGE_* (below)
 *   uint64_t s = jb_span_begin("transaction", 0);
 *   ...
 *   jb_span_end(s);
 *   jb_shutdown();                            // writes the raw file's trailer
 *
 * Every entry point fires a USDT probe of the `jbench` provider (bridge/jbench.d) when a tracer
 * has enabled it, and, in modes light/full, records an event in the calling thread's ring, which
 * a background writer thread drains to JBENCH_BRIDGE_OUT as JSON Lines (docs/events.md). A full
 * ring drops the event and counts it; the caller never waits. Until jb_init_from_env() activates
 * a mode, every call costs one predictable branch and does nothing else.
 *
 * Environment (read once, by jb_init_from_env):
 *   JBENCH_BRIDGE_MODE    off (default) | no-consumer | light | full
 *   JBENCH_BRIDGE_OUT     path of the raw event file to create (required for light and full)
 *   JBENCH_RUN_ID         the run the events belong to (written in the file's header)
 *   JBENCH_BOOT_ID        the host's boot id (default: /proc/sys/kernel/random/boot_id)
 *   JBENCH_BRIDGE_BUFFER  slots in each thread's ring (default 16384, rounded up to a power of
 *                         two, min 2; an event with a name over 32 bytes takes two)
 *
 * ABI: symbols are prefixed jb_, nothing here is C++, no structure is exposed. Within one major
 * version (JB_ABI_VERSION_MAJOR) no function or probe changes meaning or signature; minor
 * versions only add. Strings are NUL-terminated UTF-8; the bridge never keeps a caller's pointer
 * past the call (it copies at most JB_NAME_MAX - 1 bytes of every name).
 *
 * Thread-safety: every function may be called from any thread at any time, except where stated
 * (jb_init_from_env and jb_shutdown: once each, not concurrently with each other).
 *
 * Compiled out: a program built with JBENCH_TRACING defined as 0 (CMake: -DJBENCH_TRACING=OFF,
 * which links jbench::bridge as this header alone) gets every function below as an inline no-op
 * from jbench_bridge_off.h instead: nothing to link, no probes, no ABI note, the mode always off.
 */
#ifndef JBENCH_BRIDGE_H
#define JBENCH_BRIDGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define JB_ABI_VERSION_MAJOR 1
#define JB_ABI_VERSION_MINOR 0

/* Longest name kept in a record, including the terminating NUL: longer names are cut at a UTF-8
   character boundary. Probes carry the caller's full string. */
#define JB_NAME_MAX 64

/* Length of a W3C traceparent ("00-" 32 hex "-" 16 hex "-01") without its NUL. */
#define JB_TRACEPARENT_LEN 55

/* Modes, as returned by jb_mode(). */
#define JB_MODE_OFF 0         /* nothing happens; every call is one branch */
#define JB_MODE_NO_CONSUMER 1 /* probes fire for a tracer; nothing is recorded */
#define JB_MODE_LIGHT 2       /* records spans, phases, canaries, GC; not counters/allocations */
#define JB_MODE_FULL 3        /* records every event */

/* Errors returned by jb_init_from_env (negative). */
#define JB_ERR_BAD_MODE (-1) /* JBENCH_BRIDGE_MODE is not one of the four words */
#define JB_ERR_NO_OUT (-2)   /* light/full without JBENCH_BRIDGE_OUT */
#define JB_ERR_OPEN (-3)     /* JBENCH_BRIDGE_OUT cannot be created (it must not exist yet) */
#define JB_ERR_ALREADY (-4)  /* the bridge was already initialised or shut down */
#define JB_ERR_RESOURCE (-5) /* memory, /proc/self/stat or the random source was unavailable */

#if defined(JBENCH_TRACING) && !JBENCH_TRACING
#include "jbench_bridge_off.h"
#else

/* The ABI version of the library actually loaded, as (major << 16) | minor. Compare its major
   with JB_ABI_VERSION_MAJOR. Pure; any thread. */
uint32_t jb_abi_version(void);

/* Reads the environment above and activates the mode it names. Returns 0 (also when the mode is
   off) or a JB_ERR_* code, in which case the bridge stays off and a one-line reason is printed on
   stderr. In light/full it creates JBENCH_BRIDGE_OUT exclusively, writes the header and starts
   the writer thread; the file is owned by this process, which must call jb_shutdown (also
   registered with atexit) after any forked child that records has exited. Call once, before other
   threads use the bridge. */
int jb_init_from_env(void);

/* The active mode (JB_MODE_*). Any thread. */
int jb_mode(void);

/* Stops the writer thread, drains every thread's ring into the file and, in the process that
   created the file, writes the trailer (records, dropped, malformed 0, ended exit 0) and closes
   it. A forked child drains its own events only. Afterwards every call is a no-op again (mode off).
   Idempotent; registered with atexit by jb_init_from_env. Do not call concurrently with
   jb_init_from_env. */
void jb_shutdown(void);

/* Copies the 128-bit runtime id (random, made at init, shared by forked children; the W3C
   trace-id of traceparents) into out[0..15], caller-owned. All zero while the mode is off. */
void jb_runtime_id(uint8_t out[16]);

/* Begins a span called `name` (borrowed for the call) under `parent` (0 = the calling thread's
   current span, or a root if it has none) and makes it the thread's current span. Returns its id,
   unique within the run across processes; 0 when the mode is off. Any thread. */
uint64_t jb_span_begin(const char* name, uint64_t parent);

/* Ends the span `span_id` (a value jb_span_begin returned; 0 is ignored). If it is the thread's
   current span, its parent becomes current again. A span may end on another thread. */
void jb_span_end(uint64_t span_id);

/* The calling thread's current span (0 = none): pass it to another thread's jb_context_adopt. */
uint64_t jb_context_capture(void);

/* Makes `context` (from jb_context_capture or jb_traceparent_parse; 0 = none) the calling
   thread's current span, so spans it begins with parent 0 become its children. */
void jb_context_adopt(uint64_t context);

/* Writes the W3C traceparent of `span` ("00-<runtime id>-<span>-01") into buf (caller-owned,
   len bytes, NUL-terminated). Returns JB_TRACEPARENT_LEN, or -1 if len <= JB_TRACEPARENT_LEN, span
   is 0 or the mode is off (buf then holds ""). Any thread. */
int jb_traceparent_format(uint64_t span, char* buf, size_t len);

/* Parses a W3C traceparent (borrowed) and stores its parent-id in *span (caller-owned). Returns 0,
   or -1 if the text is not a valid version-00 traceparent (*span is then left unchanged). Works
   in every mode. Any thread. */
int jb_traceparent_parse(const char* traceparent, uint64_t* span);

/* The counter `name` (borrowed) takes `value` (unit: the counter's own). Recorded in full mode. */
void jb_counter(const char* name, int64_t value);

/* A garbage collection of `generation` begins with `bytes_before` bytes in use. */
void jb_gc_begin(uint32_t generation, uint64_t bytes_before);

/* A garbage collection of `generation` ends with `bytes_after` bytes in use. */
void jb_gc_end(uint32_t generation, uint64_t bytes_after);

/* One sampled allocation of `bytes` bytes at `site` (borrowed). Recorded in full mode. */
void jb_alloc_sample(uint64_t bytes, const char* site);

/* The program enters the phase `name` (borrowed), e.g. "warmup" or "measure". */
void jb_phase(const char* name);

/* Fires the canary: a tracer that sees it is proven attached. Each process counts its canaries
   from 0; the count is the probe's argument and the record's "n". */
void jb_canary(void);

#endif /* JBENCH_TRACING */

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* JBENCH_BRIDGE_H */
