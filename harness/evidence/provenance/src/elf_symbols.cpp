#include "jbench/provenance/elf_symbols.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
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

// The named symbols of the symbol table section `symbols` of `t`; `table` names it.
Result<std::vector<ElfSymbol>> read_symbols(const Reader& r, const SectionTable& t,
                                            const Elf64_Shdr& symbols, const std::string& table) {
  if (symbols.sh_entsize != sizeof(Elf64_Sym)) {
    return Error{fmt::format("{} entry size {} (expected {})", table, symbols.sh_entsize,
                             sizeof(Elf64_Sym))};
  }
  if (symbols.sh_link >= t.sections.size() || t.sections[symbols.sh_link].sh_type != SHT_STRTAB) {
    return Error{fmt::format("{} links to no string table", table)};
  }
  const Elf64_Shdr& names = t.sections[symbols.sh_link];
  const auto data = r.load(symbols.sh_offset, symbols.sh_size, table.c_str());
  if (!data) return data.error();
  const auto strings = r.load(names.sh_offset, names.sh_size, "the symbol string table");
  if (!strings) return strings.error();
  std::vector<ElfSymbol> out;
  for (std::size_t off = 0; off + sizeof(Elf64_Sym) <= data->size(); off += sizeof(Elf64_Sym)) {
    Elf64_Sym sym;
    std::memcpy(&sym, data->data() + off, sizeof sym);
    const unsigned type = ELF64_ST_TYPE(sym.st_info);
    if (sym.st_shndx == SHN_UNDEF || type == STT_SECTION || type == STT_FILE) continue;
    std::string name = SectionTable::string_at(*strings, sym.st_name);
    if (name.empty()) continue;
    out.push_back({sym.st_value, sym.st_size, nm_letter(sym, t.sections), std::move(name)});
  }
  return out;
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
  const auto header = elf::read_elf_header(r);
  if (!header) {
    map.error = header.error().message;
    return map;
  }
  std::vector<std::string> errors;
  const SectionTable t = read_section_table(r, *header, errors);
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
  if (symbols != nullptr) {
    auto read = read_symbols(r, t, *symbols, map.table);
    if (read) {
      map.symbols = std::move(*read);
    } else {
      errors.push_back(read.error().message);
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
