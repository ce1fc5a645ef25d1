#include "jbench/elf/reader.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace jbench::elf {

Status Reader::read(std::uint64_t offset, void* out, std::uint64_t length, const char* what) const {
  if (!in_bounds(offset, length)) {
    return Error{fmt::format("{} (offset {}, {} bytes) extends past the end of the file ({} bytes)",
                             what, offset, length, size_),
                 0, ErrorKind::input};
  }
  auto* p = static_cast<char*>(out);
  std::uint64_t done = 0;
  while (done < length) {
    const ssize_t n = ::pread(fd_, p + done, static_cast<std::size_t>(length - done),
                              static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int e = errno;
      return Error{fmt::format("cannot read {} of {}: {}", what, *label_, std::strerror(e)), e};
    }
    if (n == 0) {
      return Error{fmt::format("{} of {}: the file shrank while being read", what, *label_)};
    }
    done += static_cast<std::uint64_t>(n);
  }
  return {};
}

Result<std::vector<unsigned char>> Reader::load(std::uint64_t offset, std::uint64_t length,
                                                const char* what) const {
  if (length > kMaxLoadBytes) {
    return Error{fmt::format("{} is {} bytes, more than the {} bytes the reader loads", what,
                             length, kMaxLoadBytes),
                 0, ErrorKind::input};
  }
  std::vector<unsigned char> out(static_cast<std::size_t>(length));
  if (auto s = read(offset, out.data(), length, what); !s) return s.error();
  return out;
}

Result<std::unique_ptr<OpenFile>> OpenFile::open(std::string path) {
  std::unique_ptr<OpenFile> file(new OpenFile(std::move(path)));
  const std::string& p = file->path_;
  file->fd_ = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
  if (file->fd_ < 0) {
    const int e = errno;
    return Error{fmt::format("cannot open {}: {}", p, std::strerror(e)), e, ErrorKind::input};
  }
  struct stat st {};
  if (::fstat(file->fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    return Error{fmt::format("{} is not a regular file", p), 0, ErrorKind::input};
  }
  file->reader_ = Reader(file->fd_, static_cast<std::uint64_t>(st.st_size), p);
  return file;
}

OpenFile::~OpenFile() {
  if (fd_ >= 0) ::close(fd_);
}

bool has_elf_magic(const Reader& r) {
  unsigned char magic[SELFMAG] = {};
  return r.size() >= SELFMAG && r.read(0, magic, SELFMAG, "the ELF magic").ok() &&
         std::memcmp(magic, ELFMAG, SELFMAG) == 0;
}

Result<Elf64_Ehdr> read_elf_header(const Reader& r) {
  const std::string& label = r.label();
  const auto not_elf = [](std::string why) { return Error{std::move(why), 0, ErrorKind::input}; };
  unsigned char ident[EI_NIDENT] = {};
  if (r.size() < SELFMAG) {
    return not_elf(fmt::format("{} is not an ELF file ({} bytes, too small)", label, r.size()));
  }
  if (auto s =
          r.read(0, ident, std::min<std::uint64_t>(EI_NIDENT, r.size()), "the ELF identification");
      !s) {
    return s.error();
  }
  if (std::memcmp(ident, ELFMAG, SELFMAG) != 0) {
    return not_elf(fmt::format("{} is not an ELF file (no ELF magic)", label));
  }
  if (r.size() < sizeof(Elf64_Ehdr)) {
    return not_elf(
        fmt::format("{} is truncated: {} bytes, smaller than an ELF header", label, r.size()));
  }
  if (ident[EI_CLASS] != ELFCLASS64) {
    return not_elf(
        fmt::format("{}: only 64-bit ELF is supported (EI_CLASS {})", label, ident[EI_CLASS]));
  }
  if (ident[EI_DATA] != ELFDATA2LSB) {
    return not_elf(
        fmt::format("{}: only little-endian ELF is supported (EI_DATA {})", label, ident[EI_DATA]));
  }
  Elf64_Ehdr eh;
  if (auto s = r.read(0, &eh, sizeof eh, "the ELF header"); !s) return s.error();
  return eh;
}

std::string SectionTable::string_at(const std::vector<unsigned char>& table, std::uint64_t offset) {
  if (offset >= table.size()) return "";
  const auto* begin = reinterpret_cast<const char*>(table.data()) + offset;
  const void* nul = std::memchr(begin, 0, table.size() - offset);
  if (nul == nullptr) return "";  // not terminated inside the table
  return std::string(begin, static_cast<const char*>(nul));
}

SectionTable read_section_table(const Reader& r, const Elf64_Ehdr& eh,
                                std::vector<std::string>& errors) {
  SectionTable t;
  if (eh.e_shoff == 0) return t;  // no section headers (allowed: e.g. a fully stripped file)
  if (eh.e_shentsize != sizeof(Elf64_Shdr)) {
    errors.push_back(fmt::format("section header entry size {} (expected {})", eh.e_shentsize,
                                 sizeof(Elf64_Shdr)));
    return t;
  }
  Elf64_Shdr first;
  if (auto s = r.read(eh.e_shoff, &first, sizeof first, "the first section header"); !s) {
    errors.push_back(s.error().message);
    return t;
  }
  // Extended numbering: with e_shnum 0 the count is in the first header's sh_size, and with
  // e_shstrndx SHN_XINDEX the index is in its sh_link.
  const std::uint64_t count = eh.e_shnum != 0 ? eh.e_shnum : first.sh_size;
  const std::uint64_t names_index = eh.e_shstrndx == SHN_XINDEX ? first.sh_link : eh.e_shstrndx;
  if (count > (r.size() - eh.e_shoff) / sizeof(Elf64_Shdr)) {
    errors.push_back(
        fmt::format("section header table ({} entries at offset {}) extends past the "
                    "end of the file ({} bytes)",
                    count, eh.e_shoff, r.size()));
    return t;
  }
  t.sections.resize(static_cast<std::size_t>(count));
  if (auto s = r.read(eh.e_shoff, t.sections.data(), count * sizeof(Elf64_Shdr),
                      "the section header table");
      !s) {
    errors.push_back(s.error().message);
    t.sections.clear();
    return t;
  }
  if (names_index == SHN_UNDEF || names_index >= count) {
    if (count > 0) errors.push_back(fmt::format("no section name table (index {})", names_index));
  } else {
    const Elf64_Shdr& st = t.sections[static_cast<std::size_t>(names_index)];
    if (st.sh_type != SHT_STRTAB) {
      errors.push_back("the section name table is not a string table");
    } else if (auto names = r.load(st.sh_offset, st.sh_size, "the section name table"); !names) {
      errors.push_back(names.error().message);
    } else {
      t.names = std::move(*names);
    }
  }
  return t;
}

}  // namespace jbench::elf
