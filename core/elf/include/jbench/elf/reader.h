// The one ELF reader of jbench: bounds-checked reading that provenance (notes, build-id, debug
// links, symbol tables) and probes (USDT and ABI notes) share. Every offset and size from the file
// is checked against the file's size before it is read, so a malformed file is an error, never a
// read outside it. 64-bit little-endian ELF only.
//
//   auto file = elf::OpenFile::open(path);     // or a Reader over an fd you own
//   if (!file) return file.error();
//   auto header = elf::read_elf_header((*file)->reader());
//   if (!header) return header.error();
//   elf::SectionTable t = elf::read_section_table((*file)->reader(), *header, errors);
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "jbench/common/result.h"
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

  // Reads exactly `length` bytes at `offset`; `what` names them in the error.
  Status read(std::uint64_t offset, void* out, std::uint64_t length, const char* what) const;
  // Loads [offset, offset + length) into memory, at most kMaxLoadBytes.
  Result<std::vector<unsigned char>> load(std::uint64_t offset, std::uint64_t length,
                                          const char* what) const;

 private:
  int fd_;
  std::uint64_t size_;
  const std::string* label_;
};

// A regular file opened read-only for a Reader, closed on destruction.
class OpenFile {
 public:
  static Result<std::unique_ptr<OpenFile>> open(std::string path);
  ~OpenFile();
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
  const Reader& reader() const { return reader_; }

 private:
  explicit OpenFile(std::string path) : path_(std::move(path)), reader_(-1, 0, path_) {}
  std::string path_;
  int fd_ = -1;
  Reader reader_;
};

// Whether the file begins with the ELF magic (a file too short or unreadable does not).
bool has_elf_magic(const Reader& r);

// Checks the identification (magic, 64-bit, little-endian) and reads the ELF header.
Result<Elf64_Ehdr> read_elf_header(const Reader& r);

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
