// A raw file written as one zstd frame, for the collectors whose records are many and alike
// (a full-detail run's system calls): the text compresses about tenfold, and every reader of
// raw files (for_each_line, jbench/events/line_reader.h) reads it as it reads plain text.
//
// What is written is decodable up to the last flush: the writer flushes a block every
// kFlushBytes of input, so a run killed mid-way leaves a file whose lines up to that point can
// be read, and whose end says it was cut. The frame carries zstd's content checksum, so a file
// altered after it was written fails to read instead of giving other lines.
//
//   CompressedFile f;
//   if (Status s = f.open(path); !s) ...   // "cannot create ...: File exists", EEXIST
//   f.write(line); ...                     // false once a write has failed
//   if (Status s = f.close(); !s) ...
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/common/result.h"

namespace jbench::events {

// The suffix a compressed raw file's name ends with ("syscall.events.jsonl.zst").
inline constexpr const char* kCompressedSuffix = ".zst";

class CompressedFile {
 public:
  static constexpr std::size_t kFlushBytes = 4u << 20;

  CompressedFile() = default;
  ~CompressedFile();
  CompressedFile(const CompressedFile&) = delete;
  CompressedFile& operator=(const CompressedFile&) = delete;

  // Creates the file (never replacing one: a run writes each file once).
  Status open(const std::string& path);
  // Compresses `bytes` into the file. False once anything failed (then `close` says what).
  bool write(std::string_view bytes);
  // Ends the frame, flushes and closes: the first error met since `open`, if any.
  Status close();

 private:
  bool drain(int mode);  // compresses what is pending with ZSTD_e_continue/flush/end
  bool put(const char* data, std::size_t size);
  void fail(const std::string& why, int sys_errno);

  std::string path_;
  int fd_ = -1;
  void* cctx_ = nullptr;  // ZSTD_CCtx*, kept out of this header
  std::vector<char> buffer_;
  std::string_view pending_;
  std::uint64_t since_flush_ = 0;
  std::optional<Error> error_;
};

// Writes `to` (a new file) as the compressed copy of the plain file `from`, which it leaves in
// place. A copy that failed is removed, so `from` stays the one record.
Status compress_file(const std::string& from, const std::string& to);

// Replaces the plain file `dir`/`file` by its compressed copy and gives the name now kept
// (`file` + kCompressedSuffix). A file that is not there, or cannot be compressed, stays as it was
// written: then `file` itself is given back.
std::string keep_compressed(const std::string& dir, const std::string& file);

}  // namespace jbench::events
