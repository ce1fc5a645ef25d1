// Writes JSON Lines to a file descriptor through a fixed buffer, without allocating: the file is
// written at exit, at fork and from _exit, where the hooks are live and the heap may be in any
// state. One writer at a time (the lifecycle makes sure of it); the buffer is static.
#pragma once

#include <cstddef>
#include <cstdint>

namespace jb_alloc {

class LineWriter {
 public:
  explicit LineWriter(int fd) noexcept;

  LineWriter& raw(const char* text) noexcept;  // written as is: JSON punctuation and keys
  LineWriter& raw(const char* text, std::size_t n) noexcept;
  LineWriter& number(std::uint64_t v) noexcept;
  LineWriter& number(std::int64_t v) noexcept;
  // A 64-bit value as a decimal string, so no JSON reader rounds it (docs/events.md).
  LineWriter& decimal(std::uint64_t v) noexcept;
  // A JSON string: quotes, backslashes and control characters escaped; bytes that are not
  // UTF-8 written as U+FFFD.
  LineWriter& string(const char* text) noexcept;
  // The same escaped text without the quotes, to build a string from parts.
  LineWriter& string_body(const char* text) noexcept;

  // Writes what is buffered; false (and failed() from then on) if a write failed.
  bool flush() noexcept;
  bool failed() const noexcept { return failed_; }
  int error() const noexcept { return errno_; }

 private:
  void put(char c) noexcept;

  int fd_;
  std::size_t used_ = 0;
  bool failed_ = false;
  int errno_ = 0;
};

}  // namespace jb_alloc
