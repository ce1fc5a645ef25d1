// Where an export's text goes: a file written atomically (a temporary file beside it, renamed
// over it only once complete, so a reader never sees half an export and a failed one leaves
// nothing), or a stream (stdout). Text is gathered in a 1 MiB buffer and written in chunks.
#pragma once

#include <cstdio>
#include <iosfwd>
#include <string>
#include <string_view>

namespace jbench::exports {

class OutputFile {
 public:
  // `path` empty: everything goes to `stream`.
  OutputFile(std::string path, std::ostream& stream) : path_(std::move(path)), stream_(stream) {}
  ~OutputFile();  // discards the temporary file unless committed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Creates the temporary file; the error (with errno's words) when it cannot.
  std::string open();
  std::string& buffer() { return buffer_; }  // append to it, then call maybe_flush()
  void maybe_flush() {
    if (buffer_.size() >= kChunk) flush();
  }
  // Writes what is left and renames the file into place; the error when that failed.
  std::string commit();

 private:
  static constexpr std::size_t kChunk = 1 << 20;
  void flush();

  std::string path_;
  std::ostream& stream_;
  std::string temp_;
  std::FILE* file_ = nullptr;
  std::string buffer_;
  std::string write_error_;
  bool committed_ = false;
};

}  // namespace jbench::exports
