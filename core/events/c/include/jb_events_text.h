/* The text primitives every writer of a jbench.events raw file (docs/events.md) shares: the
 * UTF-8 check and JSON string escaping, 64-bit decimals, and the 16-hex-digit span id. One
 * implementation, so the trace bridge, the allocation sampler and the harness's collectors
 * cannot drift apart byte by byte.
 *
 *   char buf[64];
 *   const char* rest = name;
 *   while (*rest) emit(buf, jb_events_json_escape(&rest, buf, sizeof buf));
 *   emit(buf, jb_events_format_u64(buf, t_ns));
 *
 * Rules for every function: it writes only into the caller's buffer — it allocates nothing,
 * calls nothing from libc, takes no lock — so the allocation sampler may run it inside a malloc
 * hook or on an exit path, and the bridge's writer formats a record without allocating. All are
 * hidden: each in-process library that links the objects (jbench_events_text_objects) gets its
 * own private copy; jbench::events carries one for the harness.
 *
 * C-compatible (the implementation is C; its users are C++). */
#ifndef JB_EVENTS_TEXT_H
#define JB_EVENTS_TEXT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(hidden)

/* The longest text one input unit escapes to ("\u001f", "\ufffd"): a buffer with at least this
 * much room always takes the next unit. */
#define JB_EVENTS_ESCAPE_UNIT_MAX 6
/* Digits of UINT64_MAX; an int64 needs at most as many with its sign. */
#define JB_EVENTS_DECIMAL_MAX 20
/* A span id: 16 lowercase hex digits, the traceparent parent-id form. */
#define JB_EVENTS_SPAN_ID_DIGITS 16

/* The length of the valid UTF-8 sequence starting at p, 0 if none starts there: overlong forms,
 * surrogates and code points past U+10FFFF are not valid, so a file written with it is always
 * valid UTF-8. Reads no further than a byte that ends the sequence (a NUL does). */
size_t jb_events_utf8_length(const unsigned char* p);

/* Escapes the NUL-terminated text at *text as the inside of a JSON string (no quotes): '"' and
 * '\' get a backslash, control characters become \u00XX, valid UTF-8 is copied, any other byte
 * becomes \ufffd. Writes whole units only, as many as fit in cap bytes, advances *text past
 * them and returns the bytes written; **text is NUL once all of it is written. A caller loops
 * with a buffer of at least JB_EVENTS_ESCAPE_UNIT_MAX bytes. */
size_t jb_events_json_escape(const char** text, char* out, size_t cap);

/* v in decimal, no sign for unsigned, '-' for a negative int64; into out (room for
 * JB_EVENTS_DECIMAL_MAX bytes), not NUL-terminated. Returns the bytes written. */
size_t jb_events_format_u64(char* out, uint64_t v);
size_t jb_events_format_i64(char* out, int64_t v);

/* id as JB_EVENTS_SPAN_ID_DIGITS lowercase hex digits, leading zeros kept; not NUL-terminated. */
void jb_events_format_span_id(char* out, uint64_t id);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif /* JB_EVENTS_TEXT_H */
