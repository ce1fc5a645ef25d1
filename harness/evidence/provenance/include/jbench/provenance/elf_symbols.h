// The symbol map of an ELF file, for symbolizing addresses later without the file's tools:
// every defined symbol of its .symtab (or, in a stripped file, its .dynsym), nm-style.
//
//   SymbolMap map = read_symbol_map("/usr/lib/x86_64-linux-gnu/libc.so.6");
//   map.table                  // ".dynsym": libc ships stripped
//   symbol_map_text(map)       // "0000000000029dc0 151 T __libc_start_call_main\n..."
//
// Read with the same bounds-checked reader as elf_info.h: a malformed table is an error (symbols
// read before it are kept), never a crash. Left out, as `nm --defined-only` leaves them out:
// undefined symbols, section and file symbols, and symbols without a name.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace jbench {

struct ElfSymbol {
  std::uint64_t address = 0;  // st_value: the symbol's virtual address in the file
  std::uint64_t size = 0;     // st_size, bytes
  // nm's letter: T text, D data, B bss, R read-only, A absolute, C common, W/V weak (function,
  // object), i indirect function, u unique global, N other; lower case = local binding.
  char type = '?';
  std::string name;
};

struct SymbolMap {
  std::string table;               // ".symtab", ".dynsym", or "" when the file has neither
  std::vector<ElfSymbol> symbols;  // sorted by address, then name
  std::string error;               // empty when the table was read completely
};

SymbolMap read_symbol_map(const std::string& path);
// The same over an open descriptor (read with pread). `label` names the file in errors.
SymbolMap read_symbol_map_fd(int fd, const std::string& label);

// One line per symbol: "<address, 16 hex digits> <size, decimal> <type letter> <name>\n".
std::string symbol_map_text(const SymbolMap& map);

}  // namespace jbench
