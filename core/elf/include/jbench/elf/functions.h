// The functions of an ELF file by address, and where its bytes are loaded: what names an address
// (the symbolizer of on-CPU samples) and what places a probe by function and offset (a USDT site
// for DTrace's pid provider). Symbols from .symtab where the file kept it, else .dynsym; names as
// the file has them (mangled). 64-bit little-endian files only: any other file gives none.
//
//   const elf::FunctionTable t = elf::read_function_table(file_bytes);
//   if (const auto* f = t.covering(0x47ee)) ... f->name, 0x47ee - f->start ...
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jbench::elf {

struct Function {
  std::uint64_t start = 0;  // virtual address, as linked
  std::uint64_t end = 0;
  std::string name;
};

struct LoadSegment {
  std::uint64_t offset = 0;  // into the file
  std::uint64_t size = 0;
  std::uint64_t vaddr = 0;
};

struct FunctionTable {
  std::vector<Function> functions;  // by start
  std::vector<LoadSegment> segments;
  // The function whose [start, end) holds `vaddr`, or null: nothing is guessed.
  const Function* covering(std::uint64_t vaddr) const;
  // The address a file offset is loaded at, by the PT_LOAD segment that holds it.
  std::optional<std::uint64_t> vaddr_of(std::uint64_t offset) const;
};

// Every read is checked against the bytes' size: a malformed file gives what could be read.
FunctionTable read_function_table(std::string_view bytes);
// The same for the file at `path` (none when it cannot be read).
FunctionTable read_function_table_of(const std::string& path);

}  // namespace jbench::elf
