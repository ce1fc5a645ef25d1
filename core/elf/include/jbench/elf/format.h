// The parts of the ELF format jbench reads (the System V ABI's "Object Files" chapter, 64-bit),
// defined here rather than taken from <elf.h>: that header is glibc's and FreeBSD's, not macOS's,
// and the harness reads ELF files (a Linux worker's notes, symbols and build id) on every system
// it builds on. Names and values are the specification's.
#pragma once

#ifdef ELFMAG
#error "jbench/elf/format.h defines the ELF format itself: include it instead of <elf.h>"
#endif

#include <cstdint>

namespace jbench::elf {

// Identification (e_ident).
constexpr int EI_NIDENT = 16;
constexpr int EI_CLASS = 4;
constexpr int EI_DATA = 5;
constexpr const char* ELFMAG = "\177ELF";
constexpr int SELFMAG = 4;
constexpr unsigned char ELFCLASS64 = 2;
constexpr unsigned char ELFDATA2LSB = 1;

// Object file types (e_type) and machines (e_machine).
constexpr std::uint16_t ET_REL = 1;
constexpr std::uint16_t ET_EXEC = 2;
constexpr std::uint16_t ET_DYN = 3;
constexpr std::uint16_t ET_CORE = 4;
constexpr std::uint16_t EM_386 = 3;
constexpr std::uint16_t EM_MIPS = 8;
constexpr std::uint16_t EM_PPC64 = 21;
constexpr std::uint16_t EM_S390 = 22;
constexpr std::uint16_t EM_ARM = 40;
constexpr std::uint16_t EM_X86_64 = 62;
constexpr std::uint16_t EM_AARCH64 = 183;
constexpr std::uint16_t EM_RISCV = 243;

// Special section indexes, section types and flags.
constexpr std::uint16_t SHN_UNDEF = 0;
constexpr std::uint16_t SHN_ABS = 0xfff1;
constexpr std::uint16_t SHN_COMMON = 0xfff2;
constexpr std::uint16_t SHN_XINDEX = 0xffff;
constexpr std::uint32_t SHT_PROGBITS = 1;
constexpr std::uint32_t SHT_SYMTAB = 2;
constexpr std::uint32_t SHT_STRTAB = 3;
constexpr std::uint32_t SHT_NOTE = 7;
constexpr std::uint32_t SHT_NOBITS = 8;
constexpr std::uint32_t SHT_DYNSYM = 11;
constexpr std::uint64_t SHF_WRITE = 0x1;
constexpr std::uint64_t SHF_ALLOC = 0x2;
constexpr std::uint64_t SHF_EXECINSTR = 0x4;

// Symbol bindings and types (st_info).
constexpr unsigned STB_LOCAL = 0;
constexpr unsigned STB_WEAK = 2;
constexpr unsigned STB_GNU_UNIQUE = 10;
constexpr unsigned STT_OBJECT = 1;
constexpr unsigned STT_FUNC = 2;
constexpr unsigned STT_SECTION = 3;
constexpr unsigned STT_FILE = 4;
constexpr unsigned STT_GNU_IFUNC = 10;
constexpr unsigned ELF64_ST_BIND(unsigned char info) { return info >> 4; }
constexpr unsigned ELF64_ST_TYPE(unsigned char info) { return info & 0xfu; }

// Segment types, the program header count that says "see section 0", the GNU build-id note.
constexpr std::uint16_t PN_XNUM = 0xffff;
constexpr std::uint32_t PT_LOAD = 1;
constexpr std::uint32_t PT_NOTE = 4;
constexpr std::uint32_t NT_GNU_BUILD_ID = 3;

struct Elf64_Ehdr {
  unsigned char e_ident[EI_NIDENT];
  std::uint16_t e_type;
  std::uint16_t e_machine;
  std::uint32_t e_version;
  std::uint64_t e_entry;
  std::uint64_t e_phoff;
  std::uint64_t e_shoff;
  std::uint32_t e_flags;
  std::uint16_t e_ehsize;
  std::uint16_t e_phentsize;
  std::uint16_t e_phnum;
  std::uint16_t e_shentsize;
  std::uint16_t e_shnum;
  std::uint16_t e_shstrndx;
};

struct Elf64_Shdr {
  std::uint32_t sh_name;
  std::uint32_t sh_type;
  std::uint64_t sh_flags;
  std::uint64_t sh_addr;
  std::uint64_t sh_offset;
  std::uint64_t sh_size;
  std::uint32_t sh_link;
  std::uint32_t sh_info;
  std::uint64_t sh_addralign;
  std::uint64_t sh_entsize;
};

struct Elf64_Phdr {
  std::uint32_t p_type;
  std::uint32_t p_flags;
  std::uint64_t p_offset;
  std::uint64_t p_vaddr;
  std::uint64_t p_paddr;
  std::uint64_t p_filesz;
  std::uint64_t p_memsz;
  std::uint64_t p_align;
};

struct Elf64_Sym {
  std::uint32_t st_name;
  unsigned char st_info;
  unsigned char st_other;
  std::uint16_t st_shndx;
  std::uint64_t st_value;
  std::uint64_t st_size;
};

struct Elf64_Nhdr {
  std::uint32_t n_namesz;
  std::uint32_t n_descsz;
  std::uint32_t n_type;
};

// The sizes the specification gives: the reader maps these structures onto the file's bytes.
static_assert(sizeof(Elf64_Ehdr) == 64 && sizeof(Elf64_Shdr) == 64 && sizeof(Elf64_Phdr) == 56 &&
              sizeof(Elf64_Sym) == 24 && sizeof(Elf64_Nhdr) == 12);

}  // namespace jbench::elf
