#include "event_json.h"

#include "jb_events_lines.h"
#include "jb_events_text.h"

namespace jb_detail {
namespace {

const char* type_name(EventType t) {
  switch (t) {
    case EventType::span_begin:
      return "span_begin";
    case EventType::span_end:
      return "span_end";
    case EventType::counter:
      return "counter";
    case EventType::gc_begin:
      return "gc_begin";
    case EventType::gc_end:
      return "gc_end";
    case EventType::alloc_sample:
      return "alloc_sample";
    case EventType::phase:
      return "phase";
    case EventType::canary:
      return "canary";
    case EventType::overflow:
      return "overflow";
  }
  return "unknown";
}

// Numbers and ids are formatted by the shared primitives (core/events/c) into a small buffer and
// appended at once: one append per value, never an allocation once capacity is reserved.
std::size_t format_decimal(char* buf, std::uint64_t v) { return jb_events_format_u64(buf, v); }
std::size_t format_decimal(char* buf, std::int64_t v) { return jb_events_format_i64(buf, v); }

template <typename T>
void append_number(std::string& out, T v) {
  char buf[JB_EVENTS_DECIMAL_MAX];
  out.append(buf, format_decimal(buf, v));
}

// 64-bit values are decimal strings so no JSON reader rounds them (docs/events.md).
template <typename T>
void append_decimal_string(std::string& out, T v) {
  char buf[JB_EVENTS_DECIMAL_MAX + 2];
  buf[0] = '"';
  const std::size_t n = format_decimal(buf + 1, v);
  buf[n + 1] = '"';
  out.append(buf, n + 2);
}

}  // namespace

void append_json_string(std::string& out, const char* s) {
  // A name (under kNameBytes) escapes into one chunk, so the string is one append with its
  // quotes; longer text (a run id) takes a few.
  char chunk[kNameBytes * JB_EVENTS_ESCAPE_UNIT_MAX + 2];
  const char* rest = s ? s : "";
  chunk[0] = '"';
  std::size_t n = 1 + jb_events_json_escape(&rest, chunk + 1, sizeof chunk - 2);
  while (*rest) {
    out.append(chunk, n);
    n = jb_events_json_escape(&rest, chunk, sizeof chunk - 1);
  }
  chunk[n] = '"';
  out.append(chunk, n + 1);
}

void append_span_id(std::string& out, std::uint64_t id) {
  char buf[JB_EVENTS_SPAN_ID_DIGITS + 2];
  buf[0] = '"';
  jb_events_format_span_id(buf + 1, id);
  buf[JB_EVENTS_SPAN_ID_DIGITS + 1] = '"';
  out.append(buf, sizeof buf);
}

void append_header(std::string& out, const std::string& run_id, const std::string& boot_id) {
  out += JB_EVENTS_HEADER_BEGIN
      R"("collector":"bridge","backend":"usdt-bridge",)"
      R"("backend_version":"1.0",)" JB_EVENTS_HEADER_CLOCK
      R"("units":{"t_ns":"ns","bytes":"bytes","value":"count","generation":"count",)"
      R"("n":"count","dropped":"count"},)" JB_EVENTS_HEADER_RUN_ID;
  append_json_string(out, run_id.c_str());
  out += JB_EVENTS_HEADER_BOOT_ID;
  append_json_string(out, boot_id.c_str());
  out += JB_EVENTS_LINE_END;
}

void append_stream_fields(std::string& out, const Stream& stream) {
  out += JB_EVENTS_RECORD_PID;
  append_number(out, stream.pid);
  out += JB_EVENTS_RECORD_START_TIME_TICKS;
  append_decimal_string(out, stream.start_time_ticks);
  out += JB_EVENTS_RECORD_TID;
  append_number(out, stream.tid);
}

void append_record(std::string& out, const Event& e, std::uint64_t seq,
                   std::string_view stream_fields) {
  out += JB_EVENTS_RECORD_TYPE;
  out += type_name(e.type);
  out += JB_EVENTS_RECORD_SEQ;
  append_decimal_string(out, seq);
  out += stream_fields;
  out += JB_EVENTS_RECORD_T_NS;
  append_decimal_string(out, e.t_ns);
  switch (e.type) {
    case EventType::span_begin:
      out += R"(,"span_id":)";
      append_span_id(out, e.a);
      out += R"(,"parent_id":)";
      if (e.b == 0) {
        out += "null";
      } else {
        append_span_id(out, e.b);
      }
      out += R"(,"name":)";
      append_json_string(out, e.name);
      break;
    case EventType::span_end:
      out += R"(,"span_id":)";
      append_span_id(out, e.a);
      break;
    case EventType::counter:
      out += R"(,"name":)";
      append_json_string(out, e.name);
      out += R"(,"value":)";
      append_decimal_string(out, static_cast<std::int64_t>(e.b));
      break;
    case EventType::gc_begin:
    case EventType::gc_end:
      out += R"(,"generation":)";
      append_number(out, e.a);
      out += R"(,"bytes":)";
      append_decimal_string(out, e.b);
      break;
    case EventType::alloc_sample:
      out += R"(,"bytes":)";
      append_decimal_string(out, e.a);
      out += R"(,"site":)";
      append_json_string(out, e.name);
      break;
    case EventType::phase:
      out += R"(,"name":)";
      append_json_string(out, e.name);
      break;
    case EventType::canary:
      out += R"(,"n":)";
      append_decimal_string(out, e.a);
      break;
    case EventType::overflow:
      out += R"(,"dropped":)";
      append_decimal_string(out, e.a);
      break;
  }
  out += JB_EVENTS_LINE_END;
}

void append_trailer(std::string& out, std::uint64_t records, std::uint64_t dropped) {
  out += JB_EVENTS_TRAILER_RECORDS;
  append_number(out, records);
  out += JB_EVENTS_TRAILER_DROPPED;
  append_number(out, dropped);
  out += JB_EVENTS_TRAILER_CLEAN_END;
}

}  // namespace jb_detail
