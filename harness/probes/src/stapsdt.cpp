#include "jbench/probes/stapsdt.h"

#include <elf.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace jbench {
namespace {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the reader maps little-endian ELF structures directly onto host integers");

// Largest note section loaded into memory; a real one is a few KiB.
constexpr std::uint64_t kMaxNoteBytes = 16ull << 20;
constexpr std::uint32_t kStapsdtType = 3;  // NT_STAPSDT
constexpr std::uint32_t kJbenchAbiType = 1;

// An open file read with pread, every range checked against its size first.
class File {
 public:
  explicit File(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
      error_ = fmt::format("cannot open {}: {}", path, std::strerror(errno));
      return;
    }
    struct stat st;
    if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
      error_ = fmt::format("{} is not a regular file", path);
      return;
    }
    size_ = static_cast<std::uint64_t>(st.st_size);
  }
  ~File() {
    if (fd_ >= 0) ::close(fd_);
  }
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  const std::string& error() const { return error_; }

  bool read(std::uint64_t offset, void* out, std::uint64_t length, const char* what,
            std::string& error) const {
    if (offset > size_ || length > size_ - offset) {
      error = fmt::format("{}: {} (offset {}, {} bytes) lies past the end of the file ({} bytes)",
                          path_, what, offset, length, size_);
      return false;
    }
    auto* p = static_cast<char*>(out);
    std::uint64_t done = 0;
    while (done < length) {
      const ssize_t n = ::pread(fd_, p + done, static_cast<std::size_t>(length - done),
                                static_cast<off_t>(offset + done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        error = fmt::format("{}: cannot read {}: {}", path_, what,
                            n < 0 ? std::strerror(errno) : "the file shrank");
        return false;
      }
      done += static_cast<std::uint64_t>(n);
    }
    return true;
  }

 private:
  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
  std::string error_;
};

std::uint64_t align4(std::uint64_t v) { return (v + 3) & ~std::uint64_t{3}; }

// A NUL-terminated string inside [p, end); false if it runs off the end.
bool take_string(const unsigned char*& p, const unsigned char* end, std::string& out) {
  const void* nul = std::memchr(p, 0, static_cast<std::size_t>(end - p));
  if (!nul) return false;
  const auto* stop = static_cast<const unsigned char*>(nul);
  out.assign(reinterpret_cast<const char*>(p), static_cast<std::size_t>(stop - p));
  p = stop + 1;
  return true;
}

// A stapsdt descriptor: pc, base, semaphore (8 bytes each on ELF64), provider, name, args.
bool parse_stapsdt(const unsigned char* desc, std::uint64_t size, SdtProbe& probe) {
  if (size < 24) return false;
  std::memcpy(&probe.pc, desc, 8);
  std::memcpy(&probe.base, desc + 8, 8);
  std::memcpy(&probe.semaphore, desc + 16, 8);
  const unsigned char* p = desc + 24;
  const unsigned char* end = desc + size;
  return take_string(p, end, probe.provider) && take_string(p, end, probe.name) &&
         take_string(p, end, probe.args);
}

// Walks one note section (4-byte aligned entries, as both kinds of note here are).
bool parse_notes(const std::vector<unsigned char>& data, const std::string& where,
                 SdtReadResult& result) {
  std::uint64_t off = 0;
  const std::uint64_t size = data.size();
  while (off < size) {
    if (size - off < sizeof(Elf64_Nhdr)) {
      result.error = fmt::format("{}: truncated note header at offset {}", where, off);
      return false;
    }
    Elf64_Nhdr nh;
    std::memcpy(&nh, data.data() + off, sizeof nh);
    const std::uint64_t name_off = off + sizeof nh;
    const std::uint64_t desc_off = align4(name_off + nh.n_namesz);
    const std::uint64_t next = align4(desc_off + nh.n_descsz);
    if (desc_off + nh.n_descsz > size) {
      result.error = fmt::format("{}: the note at offset {} runs past its section", where, off);
      return false;
    }
    const std::string owner(reinterpret_cast<const char*>(data.data() + name_off),
                            nh.n_namesz > 0 ? nh.n_namesz - 1 : 0);
    const unsigned char* desc = data.data() + desc_off;
    if (owner == "stapsdt" && nh.n_type == kStapsdtType) {
      SdtProbe probe;
      if (!parse_stapsdt(desc, nh.n_descsz, probe)) {
        result.error = fmt::format("{}: malformed stapsdt note at offset {}", where, off);
        return false;
      }
      result.probes.push_back(std::move(probe));
    } else if (owner == "jbench" && nh.n_type == kJbenchAbiType && nh.n_descsz >= 8) {
      AbiVersion v;
      std::memcpy(&v.major, desc, 4);
      std::memcpy(&v.minor, desc + 4, 4);
      result.abi = v;
    }
    off = next;
  }
  return true;
}

}  // namespace

SdtReadResult read_sdt_notes(const std::string& path) {
  SdtReadResult result;
  File file(path);
  if (!file.error().empty()) {
    result.error = file.error();
    return result;
  }
  Elf64_Ehdr eh;
  if (!file.read(0, &eh, sizeof eh, "the ELF header", result.error)) return result;
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) {
    result.error = fmt::format("{} is not an ELF file", path);
    return result;
  }
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB) {
    result.error = fmt::format("{}: only 64-bit little-endian ELF files are supported", path);
    return result;
  }
  if (eh.e_shoff == 0 || eh.e_shnum == 0) return result;  // no sections: no notes
  if (eh.e_shentsize != sizeof(Elf64_Shdr)) {
    result.error = fmt::format("{}: section header size {} is not {}", path, eh.e_shentsize,
                               sizeof(Elf64_Shdr));
    return result;
  }
  std::vector<Elf64_Shdr> sections(eh.e_shnum);
  if (!file.read(eh.e_shoff, sections.data(), sections.size() * sizeof(Elf64_Shdr),
                 "the section header table", result.error)) {
    return result;
  }
  for (std::size_t i = 0; i < sections.size(); ++i) {
    const Elf64_Shdr& sh = sections[i];
    if (sh.sh_type != SHT_NOTE || sh.sh_size == 0) continue;
    if (sh.sh_size > kMaxNoteBytes) {
      result.error = fmt::format("{}: note section {} is {} bytes, over the {} byte limit", path, i,
                                 sh.sh_size, kMaxNoteBytes);
      return result;
    }
    std::vector<unsigned char> data(sh.sh_size);
    const std::string where = fmt::format("{}: note section {}", path, i);
    if (!file.read(sh.sh_offset, data.data(), sh.sh_size, "a note section", result.error) ||
        !parse_notes(data, where, result)) {
      return result;
    }
  }
  return result;
}

std::optional<std::vector<int>> sdt_arg_sizes(const std::string& args) {
  std::vector<int> sizes;
  std::size_t i = 0;
  while (i < args.size()) {
    if (args[i] == ' ') {
      ++i;
      continue;
    }
    const std::size_t at = args.find('@', i);
    const std::size_t space = args.find(' ', i);
    if (at == std::string::npos || (space != std::string::npos && space < at)) return std::nullopt;
    try {
      std::size_t used = 0;
      const int size = std::stoi(args.substr(i, at - i), &used);
      if (used != at - i) return std::nullopt;
      sizes.push_back(size);
    } catch (const std::exception&) {
      return std::nullopt;
    }
    i = space == std::string::npos ? args.size() : space;
  }
  return sizes;
}

}  // namespace jbench
