#include "traceparent.h"

#include <cstring>

namespace jb_detail {
namespace {

constexpr std::size_t kLength = 55;
const char* kHex = "0123456789abcdef";

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;  // uppercase is invalid in version 00
}

// Reads `digits` hex digits at p; false on a non-hex character. All-zero is reported in `zero`.
bool read_hex(const char* p, std::size_t digits, std::uint64_t& value, bool& zero) {
  value = 0;
  zero = true;
  for (std::size_t i = 0; i < digits; ++i) {
    const int v = hex_value(p[i]);
    if (v < 0) return false;
    if (v != 0) zero = false;
    value = (value << 4) | static_cast<std::uint64_t>(v);
  }
  return true;
}

}  // namespace

int format_traceparent(const std::uint8_t trace_id[16], std::uint64_t span, char* buf,
                       std::size_t len) noexcept {
  if (!buf) return -1;
  if (len <= kLength || span == 0) {
    if (len > 0) buf[0] = '\0';
    return -1;
  }
  char* p = buf;
  *p++ = '0';
  *p++ = '0';
  *p++ = '-';
  for (int i = 0; i < 16; ++i) {
    *p++ = kHex[trace_id[i] >> 4];
    *p++ = kHex[trace_id[i] & 0xF];
  }
  *p++ = '-';
  for (int shift = 60; shift >= 0; shift -= 4) *p++ = kHex[(span >> shift) & 0xF];
  std::memcpy(p, "-01", 4);  // sampled; includes the NUL
  return static_cast<int>(kLength);
}

int parse_traceparent(const char* text, std::uint64_t& span) noexcept {
  if (!text || std::strlen(text) != kLength) return -1;
  if (text[0] != '0' || text[1] != '0' || text[2] != '-' || text[35] != '-' || text[52] != '-') {
    return -1;
  }
  std::uint64_t hi = 0, lo = 0, parent = 0, flags = 0;
  bool hi_zero = false, lo_zero = false, parent_zero = false, flags_zero = false;
  if (!read_hex(text + 3, 16, hi, hi_zero) || !read_hex(text + 19, 16, lo, lo_zero) ||
      !read_hex(text + 36, 16, parent, parent_zero) || !read_hex(text + 53, 2, flags, flags_zero)) {
    return -1;
  }
  if ((hi_zero && lo_zero) || parent_zero) return -1;  // all-zero ids are invalid (W3C)
  span = parent;
  return 0;
}

}  // namespace jb_detail
