#include "jbench/provenance/elf_symbols.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <tuple>

#include "jbench/elf/reader.h"

namespace jbench {

using namespace elf;  // the ELF format's names (jbench/elf/format.h)
namespace {

using elf::Reader;
using elf::SectionTable;

// As binutils' nm decides it (bfd_decode_symclass), for the symbol kinds an ELF file has.
char nm_letter(const Elf64_Sym& sym, const std::vector<Elf64_Shdr>& sections) {
  const unsigned type = ELF64_ST_TYPE(sym.st_info);
  const unsigned bind = ELF64_ST_BIND(sym.st_info);
  if (sym.st_shndx == SHN_COMMON) return 'C';
  if (type == STT_GNU_IFUNC) return 'i';
  if (bind == STB_WEAK) return type == STT_OBJECT ? 'V' : 'W';
  if (bind == STB_GNU_UNIQUE) return 'u';
  char letter = 'N';
  if (sym.st_shndx == SHN_ABS) {
    letter = 'A';
  } else if (sym.st_shndx < sections.size()) {
    const Elf64_Shdr& s = sections[sym.st_shndx];
    if (s.sh_flags & SHF_EXECINSTR) {
      letter = 'T';
    } else if (s.sh_type == SHT_NOBITS && (s.sh_flags & SHF_ALLOC)) {
      letter = 'B';
    } else if ((s.sh_flags & SHF_ALLOC) && (s.sh_flags & SHF_WRITE)) {
      letter = 'D';
    } else if (s.sh_flags & SHF_ALLOC) {
      letter = 'R';
    }
  }
  return bind == STB_LOCAL ? static_cast<char>(std::tolower(letter)) : letter;
}

}  // namespace

SymbolMap read_symbol_map_fd(int fd, const std::string& label) {
  SymbolMap map;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    map.error = fmt::format("{} is not a readable regular file", label);
    return map;
  }
  const Reader r(fd, static_cast<std::uint64_t>(st.st_size), label);
  Elf64_Ehdr eh;
  bool is_elf = false;
  map.error = elf::read_elf_header(r, eh, is_elf);
  if (!map.error.empty()) return map;
  std::vector<std::string> errors;
  const SectionTable t = read_section_table(r, eh, errors);
  // The full table when the file has one; the dynamic one (exported symbols only) otherwise.
  const Elf64_Shdr* symbols = nullptr;
  for (unsigned type : {SHT_SYMTAB, SHT_DYNSYM}) {
    for (const auto& s : t.sections) {
      if (s.sh_type == type && symbols == nullptr) {
        symbols = &s;
        map.table = type == SHT_SYMTAB ? ".symtab" : ".dynsym";
      }
    }
  }
  std::string err;
  std::vector<unsigned char> data, strings;
  if (symbols == nullptr) {
    // A file without symbols has an empty map; that is not an error.
  } else if (symbols->sh_entsize != sizeof(Elf64_Sym)) {
    errors.push_back(fmt::format("{} entry size {} (expected {})", map.table, symbols->sh_entsize,
                                 sizeof(Elf64_Sym)));
  } else if (symbols->sh_link >= t.sections.size() ||
             t.sections[symbols->sh_link].sh_type != SHT_STRTAB) {
    errors.push_back(fmt::format("{} links to no string table", map.table));
  } else if (!r.load(symbols->sh_offset, symbols->sh_size, map.table.c_str(), data, err) ||
             !r.load(t.sections[symbols->sh_link].sh_offset, t.sections[symbols->sh_link].sh_size,
                     "the symbol string table", strings, err)) {
    errors.push_back(err);
  } else {
    for (std::size_t off = 0; off + sizeof(Elf64_Sym) <= data.size(); off += sizeof(Elf64_Sym)) {
      Elf64_Sym sym;
      std::memcpy(&sym, data.data() + off, sizeof sym);
      const unsigned type = ELF64_ST_TYPE(sym.st_info);
      if (sym.st_shndx == SHN_UNDEF || type == STT_SECTION || type == STT_FILE) continue;
      std::string name = SectionTable::string_at(strings, sym.st_name);
      if (name.empty()) continue;
      map.symbols.push_back(
          {sym.st_value, sym.st_size, nm_letter(sym, t.sections), std::move(name)});
    }
  }
  std::sort(map.symbols.begin(), map.symbols.end(), [](const ElfSymbol& a, const ElfSymbol& b) {
    return std::tie(a.address, a.name, a.type, a.size) <
           std::tie(b.address, b.name, b.type, b.size);
  });
  for (const auto& e : errors) map.error += (map.error.empty() ? label + ": " : "; ") + e;
  return map;
}

SymbolMap read_symbol_map(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    SymbolMap map;
    map.error = fmt::format("cannot open {}: {}", path, std::strerror(errno));
    return map;
  }
  SymbolMap map = read_symbol_map_fd(fd, path);
  ::close(fd);
  return map;
}

std::string symbol_map_text(const SymbolMap& map) {
  std::string out;
  out.reserve(map.symbols.size() * 48);
  for (const auto& s : map.symbols) {
    out += fmt::format("{:016x} {} {} {}\n", s.address, s.size, s.type, s.name);
  }
  return out;
}

}  // namespace jbench
