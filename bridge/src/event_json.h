// The raw event file's lines (docs/events.md, schema jbench.events v1) for the bridge's events.
// Pure formatting: appends to a string, no I/O; with enough capacity reserved (a record is under
// 1 KiB), appending never allocates. The format's fixed text and its primitives (escaping,
// decimals, span ids) are core/events/c's, shared with the other writers. Private to the bridge.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "event.h"

#pragma GCC visibility push(hidden)

namespace jb_detail {

// One stream: a thread of one incarnation (pid + start time in clock ticks).
struct Stream {
  std::int64_t pid;
  std::uint64_t start_time_ticks;
  std::int64_t tid;
};

void append_header(std::string& out, const std::string& run_id, const std::string& boot_id);
// The fields naming a stream (`,"pid":…,"start_time_ticks":"…","tid":…`), rendered once per
// stream and pass rather than once per record.
void append_stream_fields(std::string& out, const Stream& stream);
void append_record(std::string& out, const Event& e, std::uint64_t seq,
                   std::string_view stream_fields);
void append_trailer(std::string& out, std::uint64_t records, std::uint64_t dropped);

// `s` as a JSON string: quoted, escaped; bytes that are not UTF-8 become U+FFFD.
void append_json_string(std::string& out, const char* s);
// A span id as the file writes it: 16 lowercase hex digits, the traceparent parent-id form.
void append_span_id(std::string& out, std::uint64_t id);

}  // namespace jb_detail

#pragma GCC visibility pop
