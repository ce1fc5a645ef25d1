#include "line_writer.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "jb_events_text.h"

namespace jb_alloc {
namespace {

constexpr std::size_t kBufferBytes = 64 * 1024;
char g_buffer[kBufferBytes];

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

// Numbers and escaped text are formatted by the shared primitives (core/events/c) into a small
// stack buffer, then put byte by byte: the file's bytes and the points where the buffer is
// flushed are those of any other text.
LineWriter& LineWriter::number(std::uint64_t v) noexcept {
  char digits[JB_EVENTS_DECIMAL_MAX];
  return raw(digits, jb_events_format_u64(digits, v));
}

LineWriter& LineWriter::number(std::int64_t v) noexcept {
  char digits[JB_EVENTS_DECIMAL_MAX];
  return raw(digits, jb_events_format_i64(digits, v));
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
  char chunk[64];
  const char* rest = text ? text : "";
  while (*rest) raw(chunk, jb_events_json_escape(&rest, chunk, sizeof chunk));
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
