#include "jbench/elf/functions.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

#include "jbench/elf/format.h"

namespace jbench::elf {
namespace {

template <typename T>
bool read_at(std::string_view bytes, std::uint64_t at, T& out) {
  if (at > bytes.size() || bytes.size() - at < sizeof(T)) return false;
  std::memcpy(&out, bytes.data() + at, sizeof(T));
  return true;
}

void read_symbols(std::string_view bytes, const std::vector<Elf64_Shdr>& sections,
                  std::uint32_t kind, std::vector<Function>& out) {
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
      out.push_back(
          {sym.st_value, sym.st_value + sym.st_size, std::string(name, strnlen(name, room))});
    }
  }
}

}  // namespace

const Function* FunctionTable::covering(std::uint64_t vaddr) const {
  auto it = std::upper_bound(functions.begin(), functions.end(), vaddr,
                             [](std::uint64_t v, const Function& f) { return v < f.start; });
  if (it == functions.begin()) return nullptr;
  --it;
  return vaddr < it->end ? &*it : nullptr;
}

std::optional<std::uint64_t> FunctionTable::vaddr_of(std::uint64_t offset) const {
  for (const LoadSegment& s : segments) {
    if (offset >= s.offset && offset < s.offset + s.size) return offset - s.offset + s.vaddr;
  }
  return std::nullopt;
}

FunctionTable read_function_table(std::string_view bytes) {
  FunctionTable t;
  Elf64_Ehdr eh{};
  if (!read_at(bytes, 0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64) {
    return t;
  }
  for (std::uint16_t i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph{};
    if (!read_at(bytes, eh.e_phoff + std::uint64_t{i} * eh.e_phentsize, ph)) return t;
    if (ph.p_type == PT_LOAD) t.segments.push_back({ph.p_offset, ph.p_filesz, ph.p_vaddr});
  }
  std::vector<Elf64_Shdr> sections(eh.e_shnum);
  for (std::uint16_t i = 0; i < eh.e_shnum; ++i) {
    if (!read_at(bytes, eh.e_shoff + std::uint64_t{i} * eh.e_shentsize, sections[i])) return t;
  }
  read_symbols(bytes, sections, SHT_SYMTAB, t.functions);
  // .symtab has what .dynsym has, and more: .dynsym only where the file was stripped.
  if (t.functions.empty()) read_symbols(bytes, sections, SHT_DYNSYM, t.functions);
  std::sort(t.functions.begin(), t.functions.end(),
            [](const Function& a, const Function& b) { return a.start < b.start; });
  return t;
}

FunctionTable read_function_table_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return read_function_table(bytes.str());
}

}  // namespace jbench::elf
