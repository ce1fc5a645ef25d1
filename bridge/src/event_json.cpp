#include "event_json.h"

#include <charconv>
#include <cstring>

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

template <typename T>
void append_number(std::string& out, T v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

// 64-bit values are decimal strings so no JSON reader rounds them (docs/events.md).
template <typename T>
void append_decimal_string(std::string& out, T v) {
  out += '"';
  append_number(out, v);
  out += '"';
}

// Length of the valid UTF-8 sequence starting at p (0: not valid there).
std::size_t utf8_length(const unsigned char* p) {
  const unsigned char c = p[0];
  std::size_t n = 0;
  std::uint32_t cp = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2, cp = c & 0x1Fu;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3, cp = c & 0x0Fu;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4, cp = c & 0x07u;
  } else {
    return 0;
  }
  for (std::size_t i = 1; i < n; ++i) {
    if ((p[i] & 0xC0) != 0x80) return 0;  // also stops at the NUL
    cp = (cp << 6) | (p[i] & 0x3Fu);
  }
  const bool overlong = (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
  const bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
  return overlong || surrogate || cp > 0x10FFFF ? 0 : n;
}

}  // namespace

void append_json_string(std::string& out, const char* s) {
  static const char* kHex = "0123456789abcdef";
  out += '"';
  const auto* p = reinterpret_cast<const unsigned char*>(s ? s : "");
  while (*p) {
    const unsigned char c = *p;
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
      ++p;
    } else if (c < 0x20) {
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
      ++p;
    } else if (c < 0x80) {
      out += static_cast<char>(c);
      ++p;
    } else if (const std::size_t n = utf8_length(p)) {
      out.append(reinterpret_cast<const char*>(p), n);
      p += n;
    } else {
      out += "\\ufffd";
      ++p;
    }
  }
  out += '"';
}

void append_span_id(std::string& out, std::uint64_t id) {
  static const char* kHex = "0123456789abcdef";
  out += '"';
  for (int shift = 60; shift >= 0; shift -= 4) out += kHex[(id >> shift) & 0xF];
  out += '"';
}

void append_header(std::string& out, const std::string& run_id, const std::string& boot_id) {
  out += R"({"kind":"header","schema":"jbench.events","schema_version":1,"collector":"bridge",)"
         R"("backend":"usdt-bridge","backend_version":"1.0","clock":"CLOCK_MONOTONIC",)"
         R"("units":{"t_ns":"ns","bytes":"bytes","value":"count","generation":"count",)"
         R"("n":"count","dropped":"count"},"run_id":)";
  append_json_string(out, run_id.c_str());
  out += R"(,"boot_id":)";
  append_json_string(out, boot_id.c_str());
  out += "}\n";
}

void append_stream_fields(std::string& out, const Stream& stream) {
  out += R"(,"pid":)";
  append_number(out, stream.pid);
  out += R"(,"start_time_ticks":)";
  append_decimal_string(out, stream.start_time_ticks);
  out += R"(,"tid":)";
  append_number(out, stream.tid);
}

void append_record(std::string& out, const Event& e, std::uint64_t seq,
                   std::string_view stream_fields) {
  out += R"({"kind":"record","type":")";
  out += type_name(e.type);
  out += R"(","seq":)";
  append_decimal_string(out, seq);
  out += stream_fields;
  out += R"(,"t_ns":)";
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
  out += "}\n";
}

void append_trailer(std::string& out, std::uint64_t records, std::uint64_t dropped) {
  out += R"({"kind":"trailer","records":)";
  append_number(out, records);
  out += R"(,"dropped":)";
  append_number(out, dropped);
  out += R"(,"malformed":0,"ended":{"how":"exit","code":0}})";
  out += '\n';
}

}  // namespace jb_detail
