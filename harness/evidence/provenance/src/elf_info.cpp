#include "jbench/provenance/elf_info.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>

#include "jbench/elf/reader.h"

namespace jbench {

using namespace elf;  // the ELF format's names (jbench/elf/format.h)

namespace {

using elf::Reader;

std::string type_name(std::uint16_t type) {
  switch (type) {
    case ET_EXEC:
      return "exec";
    case ET_DYN:
      return "dyn";
    case ET_REL:
      return "rel";
    case ET_CORE:
      return "core";
    default:
      return fmt::format("unknown({})", type);
  }
}

std::string machine_name(std::uint16_t machine) {
  switch (machine) {
    case EM_X86_64:
      return "x86_64";
    case EM_AARCH64:
      return "aarch64";
    case EM_386:
      return "i386";
    case EM_ARM:
      return "arm";
    case EM_RISCV:
      return "riscv";
    case EM_PPC64:
      return "ppc64";
    case EM_S390:
      return "s390";
    case EM_MIPS:
      return "mips";
    default:
      return fmt::format("em_{}", machine);
  }
}

std::uint64_t align_up(std::uint64_t v, std::uint64_t a) { return (v + a - 1) / a * a; }

// Walks the notes in `data`; sets `build_id` from the first GNU build-id note. `align` is 4 or 8.
void parse_notes(const std::vector<unsigned char>& data, std::uint64_t align, const char* where,
                 std::string& build_id, std::vector<std::string>& errors) {
  std::uint64_t off = 0;
  const std::uint64_t size = data.size();
  while (off < size) {
    if (size - off < sizeof(Elf64_Nhdr)) {
      // Trailing padding shorter than a header is tolerated; anything else is malformed.
      for (std::uint64_t i = off; i < size; ++i) {
        if (data[i] != 0) {
          errors.push_back(fmt::format("{}: truncated note header at offset {}", where, off));
          return;
        }
      }
      return;
    }
    Elf64_Nhdr nh;
    std::memcpy(&nh, data.data() + off, sizeof nh);
    // Padding aligns the descriptor and the next note to `align` within the container (for
    // 8-byte aligned notes the 12-byte header plus a 4-byte name already ends aligned).
    const std::uint64_t name_off = off + sizeof nh;
    const std::uint64_t desc_off = align_up(name_off + nh.n_namesz, align);
    const std::uint64_t next = align_up(desc_off + nh.n_descsz, align);
    // namesz and descsz are 32-bit, so these sums cannot overflow 64 bits.
    if (desc_off > size || nh.n_descsz > size - desc_off || name_off + nh.n_namesz > size) {
      errors.push_back(
          fmt::format("{}: note at offset {} (name {} bytes, desc {} bytes) runs past "
                      "its container ({} bytes)",
                      where, off, nh.n_namesz, nh.n_descsz, size));
      return;
    }
    if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
        std::memcmp(data.data() + name_off, "GNU", 4) == 0 && build_id.empty()) {
      if (nh.n_descsz == 0 || nh.n_descsz > 64) {
        errors.push_back(fmt::format("{}: build-id note of {} bytes", where, nh.n_descsz));
      } else {
        static constexpr char kHex[] = "0123456789abcdef";
        for (std::uint64_t i = 0; i < nh.n_descsz; ++i) {
          const unsigned char c = data[desc_off + i];
          build_id += kHex[c >> 4];
          build_id += kHex[c & 0xf];
        }
      }
    }
    off = next;
  }
}

void read_sections(const Reader& r, const Elf64_Ehdr& eh, ElfInfo& info,
                   std::vector<std::string>& errors) {
  const elf::SectionTable table = read_section_table(r, eh, errors);
  const auto& sections = table.sections;
  for (std::size_t i = 0; i < sections.size(); ++i) {
    const Elf64_Shdr& s = sections[i];
    if (s.sh_type == SHT_SYMTAB) info.has_symtab = true;
    const std::string name = table.name_of(s);
    if ((name == ".debug_info" || name == ".zdebug_info") && s.sh_type != SHT_NOBITS &&
        s.sh_size > 0) {
      if (r.in_bounds(s.sh_offset, s.sh_size)) {
        info.has_debug_info = true;
      } else {
        errors.push_back(fmt::format("section {} extends past the end of the file", name));
      }
    }
    if (name == ".gnu_debuglink" && s.sh_type == SHT_PROGBITS) {
      // A NUL-terminated file name, padded to 4 bytes, then the debug file's CRC-32.
      const auto loaded = r.load(s.sh_offset, s.sh_size, ".gnu_debuglink");
      if (!loaded) {
        errors.push_back(loaded.error().message);
        continue;
      }
      const std::vector<unsigned char>& data = *loaded;
      const std::string file = elf::SectionTable::string_at(data, 0);
      const std::uint64_t crc_at = (file.size() + 4) / 4 * 4;
      if (file.empty() || crc_at + 4 > data.size()) {
        errors.push_back(".gnu_debuglink holds no file name and CRC");
        continue;
      }
      info.debuglink = file;
      std::memcpy(&info.debuglink_crc, data.data() + crc_at, 4);
    }
    if (s.sh_type == SHT_NOTE) {
      const std::string what = fmt::format("note section {} ('{}')", i, name);
      const auto data = r.load(s.sh_offset, s.sh_size, what.c_str());
      if (!data) {
        errors.push_back(data.error().message);
        continue;
      }
      parse_notes(*data, s.sh_addralign == 8 ? 8 : 4, what.c_str(), info.build_id, errors);
    }
  }
}

void read_segments(const Reader& r, const Elf64_Ehdr& eh, ElfInfo& info,
                   std::vector<std::string>& errors) {
  if (eh.e_phoff == 0 || eh.e_phnum == 0) return;
  if (eh.e_phentsize != sizeof(Elf64_Phdr)) {
    errors.push_back(fmt::format("program header entry size {} (expected {})", eh.e_phentsize,
                                 sizeof(Elf64_Phdr)));
    return;
  }
  std::uint64_t count = eh.e_phnum;
  if (eh.e_phnum == PN_XNUM) {
    // The real count is in sh_info of the first section header.
    Elf64_Shdr first;
    if (eh.e_shoff == 0 || !r.read(eh.e_shoff, &first, sizeof first, "the first section header")) {
      errors.push_back("PN_XNUM program headers without a readable first section header");
      return;
    }
    count = first.sh_info;
  }
  if (eh.e_phoff > r.size() || count > (r.size() - eh.e_phoff) / sizeof(Elf64_Phdr)) {
    errors.push_back(
        fmt::format("program header table ({} entries at offset {}) extends past the "
                    "end of the file ({} bytes)",
                    count, eh.e_phoff, r.size()));
    return;
  }
  std::vector<Elf64_Phdr> segments(static_cast<std::size_t>(count));
  if (auto s = r.read(eh.e_phoff, segments.data(), count * sizeof(Elf64_Phdr),
                      "the program header table");
      !s) {
    errors.push_back(s.error().message);
    return;
  }
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const Elf64_Phdr& p = segments[i];
    if (p.p_type != PT_NOTE) continue;
    const std::string what = fmt::format("PT_NOTE segment {}", i);
    const auto data = r.load(p.p_offset, p.p_filesz, what.c_str());
    if (!data) {
      errors.push_back(data.error().message);
      continue;
    }
    parse_notes(*data, p.p_align == 8 ? 8 : 4, what.c_str(), info.build_id, errors);
  }
}

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += "; ";
    out += p;
  }
  return out;
}

}  // namespace

ElfInfo read_elf_info_fd(int fd, const std::string& label, const std::string& root) {
  ElfInfo info;
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    info.error = fmt::format("cannot stat {}: {}", label, std::strerror(errno));
    return info;
  }
  if (!S_ISREG(st.st_mode)) {
    info.error = fmt::format("{} is not a regular file", label);
    return info;
  }
  const Reader r(fd, static_cast<std::uint64_t>(st.st_size), label);
  const auto header = elf::read_elf_header(r);
  info.is_elf = elf::has_elf_magic(r);
  if (!header) {
    info.error = header.error().message;
    return info;
  }
  const Elf64_Ehdr& eh = *header;
  info.type = type_name(eh.e_type);
  info.machine = machine_name(eh.e_machine);

  std::vector<std::string> errors;
  read_sections(r, eh, info, errors);
  read_segments(r, eh, info, errors);
  if (!errors.empty()) info.error = fmt::format("{}: {}", label, join(errors));

  if (info.build_id.size() >= 4) {
    const std::string debug = fmt::format("{}/usr/lib/debug/.build-id/{}/{}.debug", root,
                                          info.build_id.substr(0, 2), info.build_id.substr(2));
    struct stat ds {};
    if (::stat(debug.c_str(), &ds) == 0 && S_ISREG(ds.st_mode)) {
      info.separate_debug_file = debug;
      info.separate_debug_via = "build-id";
    }
  }
  return info;
}

namespace {

// The CRC-32 of .gnu_debuglink (the zlib/IEEE polynomial, reflected), over the whole file.
std::optional<std::uint32_t> file_crc32(const std::string& path) {
  static const std::array<std::uint32_t, 256> table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  std::uint32_t crc = 0xffffffffu;
  std::vector<unsigned char> buf(1 << 16);
  for (;;) {
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    for (ssize_t i = 0; i < n; ++i) {
      crc = table[(crc ^ buf[static_cast<std::size_t>(i)]) & 0xff] ^ (crc >> 8);
    }
  }
  ::close(fd);
  return crc ^ 0xffffffffu;
}

}  // namespace

std::optional<std::string> resolve_debuglink(const std::string& binary_path, const ElfInfo& info,
                                             const std::string& root) {
  if (info.debuglink.empty() || info.debuglink.find('/') != std::string::npos) return std::nullopt;
  const std::filesystem::path dir = std::filesystem::path(binary_path).parent_path();
  // GDB's search order: beside the binary, in .debug/ beside it, under the global debug dir.
  for (const std::string& candidate :
       {fmt::format("{}{}/{}", root, dir.string(), info.debuglink),
        fmt::format("{}{}/.debug/{}", root, dir.string(), info.debuglink),
        fmt::format("{}/usr/lib/debug{}/{}", root, dir.string(), info.debuglink)}) {
    struct stat st {};
    if (::stat(candidate.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    // The binary itself can sit where its link points (a link to itself is no debug file), and
    // a file of the right name but another CRC belongs to another build.
    std::error_code ec;
    if (std::filesystem::equivalent(candidate, binary_path, ec)) continue;
    if (file_crc32(candidate) == info.debuglink_crc) return candidate;
  }
  return std::nullopt;
}

ElfInfo read_elf_info(const std::string& path, const std::string& root) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    ElfInfo info;
    info.error = fmt::format("cannot open {}: {}", path, std::strerror(errno));
    return info;
  }
  ElfInfo info = read_elf_info_fd(fd, path, root);
  ::close(fd);
  return info;
}

}  // namespace jbench
