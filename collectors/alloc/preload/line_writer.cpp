#include "line_writer.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace jb_alloc {
namespace {

constexpr std::size_t kBufferBytes = 64 * 1024;
char g_buffer[kBufferBytes];

// Length of the valid UTF-8 sequence at p (0 if none starts there): rejects overlong forms,
// surrogates and code points past U+10FFFF, so the file is always valid UTF-8.
std::size_t utf8_length(const unsigned char* p) noexcept {
  const unsigned char c = p[0];
  std::size_t n = 0;
  std::uint32_t cp = 0;
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
  for (std::size_t i = 1; i < n; ++i) {
    if ((p[i] & 0xC0) != 0x80) return 0;  // a NUL stops here too
    cp = (cp << 6) | (p[i] & 0x3Fu);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000)) return 0;
  if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return 0;
  return n;
}

}  // namespace

LineWriter::LineWriter(int fd) noexcept : fd_(fd) {}

void LineWriter::put(char c) noexcept {
  if (used_ == kBufferBytes && !flush()) return;
  g_buffer[used_++] = c;
}

LineWriter& LineWriter::raw(const char* text, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) put(text[i]);
  return *this;
}

LineWriter& LineWriter::raw(const char* text) noexcept { return raw(text, std::strlen(text)); }

LineWriter& LineWriter::number(std::uint64_t v) noexcept {
  char digits[20];
  std::size_t n = 0;
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (n > 0) put(digits[--n]);
  return *this;
}

LineWriter& LineWriter::number(std::int64_t v) noexcept {
  if (v >= 0) return number(static_cast<std::uint64_t>(v));
  put('-');
  // Negating in unsigned arithmetic is defined for INT64_MIN too.
  return number(0 - static_cast<std::uint64_t>(v));
}

LineWriter& LineWriter::decimal(std::uint64_t v) noexcept {
  put('"');
  number(v);
  put('"');
  return *this;
}

LineWriter& LineWriter::string(const char* text) noexcept {
  put('"');
  string_body(text);
  put('"');
  return *this;
}

LineWriter& LineWriter::string_body(const char* text) noexcept {
  static const char kHex[] = "0123456789abcdef";
  const auto* p = reinterpret_cast<const unsigned char*>(text ? text : "");
  while (*p) {
    const unsigned char c = *p;
    if (c == '"' || c == '\\') {
      put('\\');
      put(static_cast<char>(c));
      ++p;
    } else if (c < 0x20) {
      raw("\\u00");
      put(kHex[c >> 4]);
      put(kHex[c & 0xF]);
      ++p;
    } else if (c < 0x80) {
      put(static_cast<char>(c));
      ++p;
    } else if (const std::size_t n = utf8_length(p)) {
      raw(reinterpret_cast<const char*>(p), n);
      p += n;
    } else {
      raw("\\ufffd");
      ++p;
    }
  }
  return *this;
}

bool LineWriter::flush() noexcept {
  if (failed_) return false;
  std::size_t done = 0;
  while (done < used_) {
    const ssize_t n = ::write(fd_, g_buffer + done, used_ - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      failed_ = true;
      errno_ = n < 0 ? errno : ENOSPC;
      used_ = 0;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  used_ = 0;
  return true;
}

}  // namespace jb_alloc
