#include "symbolize.h"

#include <cxxabi.h>
#include <elf.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace jbench::collectors::syscall_detail {
namespace {

std::string base_name(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string demangled(const char* name) {
  int status = 0;
  char* out = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || out == nullptr) return name;
  std::string s(out);
  std::free(out);
  return s;
}

template <typename T>
bool read_at(const std::string& bytes, std::uint64_t at, T& out) {
  if (at > bytes.size() || bytes.size() - at < sizeof(T)) return false;
  std::memcpy(&out, bytes.data() + at, sizeof(T));
  return true;
}

}  // namespace

// One ELF file's functions, by virtual address, and its loaded segments (file offset -> address).
struct Symbolizer::Symbols {
  struct Function {
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    std::string name;
  };
  struct Segment {
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
    std::uint64_t vaddr = 0;
  };
  std::vector<Function> functions;  // by start
  std::vector<Segment> segments;

  // The address a file offset is loaded at, by the PT_LOAD segment that holds it.
  std::optional<std::uint64_t> vaddr_of(std::uint64_t offset) const {
    for (const Segment& s : segments) {
      if (offset >= s.offset && offset < s.offset + s.size) return offset - s.offset + s.vaddr;
    }
    return std::nullopt;
  }
  const Function* covering(std::uint64_t vaddr) const {
    auto it = std::upper_bound(functions.begin(), functions.end(), vaddr,
                               [](std::uint64_t v, const Function& f) { return v < f.start; });
    if (it == functions.begin()) return nullptr;
    --it;
    return vaddr < it->end ? &*it : nullptr;
  }

  // A 64-bit little-endian ELF file's PT_LOAD segments and its function symbols (.symtab where
  // the file kept it, else .dynsym). A file that is not one gives none: its frames keep offsets.
  void load(const std::string& bytes) {
    Elf64_Ehdr eh{};
    if (!read_at(bytes, 0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] != ELFCLASS64) {
      return;
    }
    for (std::uint16_t i = 0; i < eh.e_phnum; ++i) {
      Elf64_Phdr ph{};
      if (!read_at(bytes, eh.e_phoff + std::uint64_t{i} * eh.e_phentsize, ph)) return;
      if (ph.p_type == PT_LOAD) segments.push_back({ph.p_offset, ph.p_filesz, ph.p_vaddr});
    }
    std::vector<Elf64_Shdr> sections(eh.e_shnum);
    for (std::uint16_t i = 0; i < eh.e_shnum; ++i) {
      if (!read_at(bytes, eh.e_shoff + std::uint64_t{i} * eh.e_shentsize, sections[i])) return;
    }
    for (const std::uint32_t kind : {std::uint32_t{SHT_SYMTAB}, std::uint32_t{SHT_DYNSYM}}) {
      for (const Elf64_Shdr& s : sections) {
        if (s.sh_type != kind || s.sh_link >= sections.size() || s.sh_entsize == 0) continue;
        const Elf64_Shdr& strings = sections[s.sh_link];
        for (std::uint64_t at = s.sh_offset; at + s.sh_entsize <= s.sh_offset + s.sh_size;
             at += s.sh_entsize) {
          Elf64_Sym sym{};
          if (!read_at(bytes, at, sym)) break;
          if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_value == 0 || sym.st_size == 0 ||
              sym.st_name >= strings.sh_size || strings.sh_offset + sym.st_name >= bytes.size()) {
            continue;
          }
          const char* name = bytes.data() + strings.sh_offset + sym.st_name;
          const std::size_t room = bytes.size() - (strings.sh_offset + sym.st_name);
          functions.push_back({sym.st_value, sym.st_value + sym.st_size,
                               demangled(std::string(name, strnlen(name, room)).c_str())});
        }
      }
      if (!functions.empty()) break;  // .symtab has what .dynsym has, and more
    }
    std::sort(functions.begin(), functions.end(),
              [](const Function& a, const Function& b) { return a.start < b.start; });
  }
};

std::vector<Mapping> read_executable_maps(pid_t pid) {
  std::vector<Mapping> out;
  std::ifstream in(fmt::format("/proc/{}/maps", pid));
  std::string line;
  while (std::getline(in, line)) {
    // "start-end perms offset dev inode path"
    std::istringstream fields(line);
    std::string range, perms, offset, dev, inode, path;
    fields >> range >> perms >> offset >> dev >> inode;
    std::getline(fields >> std::ws, path);
    // Files, and the kernel's vDSO (the clock's code), which has no file to read symbols from.
    if (perms.size() < 3 || perms[2] != 'x' || (path.rfind('/', 0) != 0 && path != "[vdso]")) {
      continue;
    }
    const auto dash = range.find('-');
    if (dash == std::string::npos) continue;
    Mapping m;
    m.start = std::strtoull(range.substr(0, dash).c_str(), nullptr, 16);
    m.end = std::strtoull(range.substr(dash + 1).c_str(), nullptr, 16);
    m.offset = std::strtoull(offset.c_str(), nullptr, 16);
    m.path = path;
    out.push_back(std::move(m));
  }
  return out;
}

std::string Frame::text() const {
  if (!function.empty())
    return module.empty() ? function : fmt::format("{} ({})", function, module);
  if (!module.empty()) return fmt::format("{}+0x{:x}", module, offset);
  return fmt::format("0x{:x}", offset);
}

Symbolizer::Symbolizer() = default;
Symbolizer::~Symbolizer() = default;

const Symbolizer::Symbols& Symbolizer::symbols_of(const std::string& path) {
  auto& slot = files_[path];
  if (!slot) {
    slot = std::make_unique<Symbols>();
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    slot->load(bytes.str());
  }
  return *slot;
}

Frame Symbolizer::frame(std::uint64_t ip, const std::vector<Mapping>& maps, bool return_address) {
  const std::uint64_t at = return_address && ip > 0 ? ip - 1 : ip;
  Frame f;
  f.offset = ip;
  const auto m = std::find_if(maps.begin(), maps.end(),
                              [at](const Mapping& x) { return at >= x.start && at < x.end; });
  if (m == maps.end()) return f;
  f.module = base_name(m->path);
  f.offset = at - m->start + m->offset;
  if (m->path.front() != '/') return f;  // [vdso]: no file behind it
  const Symbols& symbols = symbols_of(m->path);
  if (const auto vaddr = symbols.vaddr_of(f.offset)) {
    if (const auto* fn = symbols.covering(*vaddr)) f.function = fn->name;
  }
  return f;
}

}  // namespace jbench::collectors::syscall_detail
