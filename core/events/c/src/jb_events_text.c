/* The jbench.events text primitives (include/jb_events_text.h). Plain loops only: compiled with
 * -fno-builtin for the allocation sampler, and no libc function is called here. */
#include "jb_events_text.h"

static const char k_hex[] = "0123456789abcdef";

/* "00" "01" … "99": two digits per division, as std::to_chars does, so the bridge's writer
 * lost nothing when it moved here. */
static const char k_digit_pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

size_t jb_events_utf8_length(const unsigned char* p) {
  const unsigned char c = p[0];
  size_t n = 0;
  uint32_t cp = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
    cp = c & 0x1Fu;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    cp = c & 0x0Fu;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    cp = c & 0x07u;
  } else {
    return 0;
  }
  for (size_t i = 1; i < n; ++i) {
    if ((p[i] & 0xC0) != 0x80) return 0; /* a NUL stops here too */
    cp = (cp << 6) | (p[i] & 0x3Fu);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000)) return 0;
  if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return 0;
  return n;
}

size_t jb_events_json_escape(const char** text, char* out, size_t cap) {
  const unsigned char* p = (const unsigned char*)*text;
  size_t used = 0;
  while (*p) {
    const unsigned char c = *p;
    /* Printable ASCII first: nearly every name is only that. */
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      if (used == cap) break;
      out[used++] = (char)c;
      ++p;
    } else if (c == '"' || c == '\\') {
      if (cap - used < 2) break;
      out[used++] = '\\';
      out[used++] = (char)c;
      ++p;
    } else if (c < 0x20) {
      if (cap - used < 6) break;
      out[used++] = '\\';
      out[used++] = 'u';
      out[used++] = '0';
      out[used++] = '0';
      out[used++] = k_hex[c >> 4];
      out[used++] = k_hex[c & 0xF];
      ++p;
    } else {
      const size_t n = jb_events_utf8_length(p);
      if (n > 0) {
        if (cap - used < n) break;
        for (size_t i = 0; i < n; ++i) out[used++] = (char)p[i];
        p += n;
      } else {
        if (cap - used < 6) break;
        out[used++] = '\\';
        out[used++] = 'u';
        out[used++] = 'f';
        out[used++] = 'f';
        out[used++] = 'f';
        out[used++] = 'd';
        ++p;
      }
    }
  }
  *text = (const char*)p;
  return used;
}

/* Decimal digits of v (at least 1), four orders of magnitude per step. */
static size_t decimal_digits(uint64_t v) {
  size_t n = 1;
  for (;;) {
    if (v < 10) return n;
    if (v < 100) return n + 1;
    if (v < 1000) return n + 2;
    if (v < 10000) return n + 3;
    v /= 10000;
    n += 4;
  }
}

size_t jb_events_format_u64(char* out, uint64_t v) {
  const size_t n = decimal_digits(v);
  size_t pos = n;
  while (v >= 100) {
    const size_t i = (size_t)(v % 100) * 2;
    v /= 100;
    out[--pos] = k_digit_pairs[i + 1];
    out[--pos] = k_digit_pairs[i];
  }
  if (v >= 10) {
    const size_t i = (size_t)v * 2;
    out[1] = k_digit_pairs[i + 1];
    out[0] = k_digit_pairs[i];
  } else {
    out[0] = (char)('0' + v);
  }
  return n;
}

size_t jb_events_format_i64(char* out, int64_t v) {
  if (v >= 0) return jb_events_format_u64(out, (uint64_t)v);
  out[0] = '-';
  /* Negating in unsigned arithmetic is defined for INT64_MIN too. */
  return 1 + jb_events_format_u64(out + 1, 0 - (uint64_t)v);
}

void jb_events_format_span_id(char* out, uint64_t id) {
  for (size_t i = JB_EVENTS_SPAN_ID_DIGITS; i > 0; --i) {
    out[i - 1] = k_hex[id & 0xF];
    id >>= 4;
  }
}
