#include "jbench/elf/reader.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>

namespace jbench::elf {

OpenFile::OpenFile(std::string path) : path_(std::move(path)), reader_(-1, 0, path_) {
  fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) {
    error_ = fmt::format("cannot open {}: {}", path_, std::strerror(errno));
    return;
  }
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    error_ = fmt::format("{} is not a regular file", path_);
    return;
  }
  reader_ = Reader(fd_, static_cast<std::uint64_t>(st.st_size), path_);
}

OpenFile::~OpenFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::string read_elf_header(const Reader& r, Elf64_Ehdr& eh, bool& is_elf) {
  is_elf = false;
  const std::string& label = r.label();
  std::string err;
  unsigned char ident[EI_NIDENT] = {};
  if (r.size() < SELFMAG) {
    return fmt::format("{} is not an ELF file ({} bytes, too small)", label, r.size());
  }
  if (!r.read(0, ident, std::min<std::uint64_t>(EI_NIDENT, r.size()), "the ELF identification",
              err)) {
    return err;
  }
  if (std::memcmp(ident, ELFMAG, SELFMAG) != 0) {
    return fmt::format("{} is not an ELF file (no ELF magic)", label);
  }
  is_elf = true;
  if (r.size() < sizeof(Elf64_Ehdr)) {
    return fmt::format("{} is truncated: {} bytes, smaller than an ELF header", label, r.size());
  }
  if (ident[EI_CLASS] != ELFCLASS64) {
    return fmt::format("{}: only 64-bit ELF is supported (EI_CLASS {})", label, ident[EI_CLASS]);
  }
  if (ident[EI_DATA] != ELFDATA2LSB) {
    return fmt::format("{}: only little-endian ELF is supported (EI_DATA {})", label,
                       ident[EI_DATA]);
  }
  if (!r.read(0, &eh, sizeof eh, "the ELF header", err)) return err;
  return {};
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
  std::string err;
  if (eh.e_shentsize != sizeof(Elf64_Shdr)) {
    errors.push_back(fmt::format("section header entry size {} (expected {})", eh.e_shentsize,
                                 sizeof(Elf64_Shdr)));
    return t;
  }
  Elf64_Shdr first;
  if (!r.read(eh.e_shoff, &first, sizeof first, "the first section header", err)) {
    errors.push_back(err);
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
  if (!r.read(eh.e_shoff, t.sections.data(), count * sizeof(Elf64_Shdr), "the section header table",
              err)) {
    errors.push_back(err);
    t.sections.clear();
    return t;
  }
  if (names_index == SHN_UNDEF || names_index >= count) {
    if (count > 0) errors.push_back(fmt::format("no section name table (index {})", names_index));
  } else {
    const Elf64_Shdr& st = t.sections[static_cast<std::size_t>(names_index)];
    if (st.sh_type != SHT_STRTAB) {
      errors.push_back("the section name table is not a string table");
    } else if (!r.load(st.sh_offset, st.sh_size, "the section name table", t.names, err)) {
      errors.push_back(err);
      t.names.clear();
    }
  }
  return t;
}

}  // namespace jbench::elf
