// The one ELF reader of jbench: bounds-checked reading that provenance (notes, build-id, debug
// links, symbol tables) and probes (USDT and ABI notes) share. Every offset and size from the file
// is checked against the file's size before it is read, so a malformed file is an error, never a
// read outside it. 64-bit little-endian ELF only.
//
//   elf::OpenFile f(path);                     // or a Reader over an fd you own
//   Elf64_Ehdr eh; bool is_elf;
//   if (auto why = elf::read_elf_header(f.reader(), eh, is_elf); !why.empty()) ...
//   elf::SectionTable t = elf::read_section_table(f.reader(), eh, errors);
#pragma once

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "jbench/elf/format.h"

namespace jbench::elf {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the ELF reader maps little-endian structures directly onto host integers");

// Largest section or segment the reader loads into memory (notes, string and symbol tables).
constexpr std::uint64_t kMaxLoadBytes = 64ull << 20;

class Reader {
 public:
  // `label` names the file in messages; it must outlive the reader.
  Reader(int fd, std::uint64_t size, const std::string& label)
      : fd_(fd), size_(size), label_(&label) {}
  std::uint64_t size() const { return size_; }
  const std::string& label() const { return *label_; }

  // Whether [offset, offset + length) lies inside the file.
  bool in_bounds(std::uint64_t offset, std::uint64_t length) const {
    return offset <= size_ && length <= size_ - offset;
  }

  // Reads exactly `length` bytes at `offset`, or sets `error`.
  bool read(std::uint64_t offset, void* out, std::uint64_t length, const char* what,
            std::string& error) const {
    if (!in_bounds(offset, length)) {
      error = fmt::format("{} (offset {}, {} bytes) extends past the end of the file ({} bytes)",
                          what, offset, length, size_);
      return false;
    }
    auto* p = static_cast<char*>(out);
    std::uint64_t done = 0;
    while (done < length) {
      const ssize_t n = ::pread(fd_, p + done, static_cast<std::size_t>(length - done),
                                static_cast<off_t>(offset + done));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        error = fmt::format("cannot read {} of {}: {}", what, *label_, std::strerror(errno));
        return false;
      }
      if (n == 0) {
        error = fmt::format("{} of {}: the file shrank while being read", what, *label_);
        return false;
      }
      done += static_cast<std::uint64_t>(n);
    }
    return true;
  }

  bool load(std::uint64_t offset, std::uint64_t length, const char* what,
            std::vector<unsigned char>& out, std::string& error) const {
    if (length > kMaxLoadBytes) {
      error = fmt::format("{} is {} bytes, more than the {} bytes the reader loads", what, length,
                          kMaxLoadBytes);
      return false;
    }
    out.resize(static_cast<std::size_t>(length));
    return read(offset, out.data(), length, what, error);
  }

 private:
  int fd_;
  std::uint64_t size_;
  const std::string* label_;
};

// Opens a regular file read-only for a Reader and closes it on destruction; `error()` says why
// it could not (then `reader()` must not be used).
class OpenFile {
 public:
  explicit OpenFile(std::string path);
  ~OpenFile();
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
  const std::string& error() const { return error_; }
  const Reader& reader() const { return reader_; }

 private:
  std::string path_;
  int fd_ = -1;
  std::string error_;
  Reader reader_;
};

// Checks the identification (magic, 64-bit, little-endian) and reads the ELF header. Returns ""
// or why not; `is_elf` says whether the magic was there.
std::string read_elf_header(const Reader& r, Elf64_Ehdr& header, bool& is_elf);

// The section header table (extended numbering resolved) and the section name table.
struct SectionTable {
  std::vector<Elf64_Shdr> sections;
  std::vector<unsigned char> names;
  // The NUL-terminated string at `offset` of `table`; "" when out of range or unterminated.
  static std::string string_at(const std::vector<unsigned char>& table, std::uint64_t offset);
  std::string name_of(const Elf64_Shdr& s) const { return string_at(names, s.sh_name); }
};
// Appends what went wrong to `errors`; sections read before a problem are kept.
SectionTable read_section_table(const Reader& r, const Elf64_Ehdr& header,
                                std::vector<std::string>& errors);

}  // namespace jbench::elf
