// What an ELF file says about itself: type, machine, GNU build-id, symbols and debug info, and
// where its separate debug file is (by build-id or .gnu_debuglink).
//
//   ElfInfo info = read_elf_info("/usr/bin/sqlite3");
//   if (!info.error.empty()) log(info.error);   // fields read before the problem stay set
//   info.build_id   // "3f2a...": matches `readelf -n` "Build ID" and debuginfod/.build-id paths
//
// Only 64-bit little-endian ELF is parsed. The parser reads the file with pread and checks every
// offset and size against the file's size (with overflow checks), so a truncated or malformed
// file yields an error, never a crash or a read outside the file. Notes are searched in SHT_NOTE
// sections and in PT_NOTE segments (a stripped file may keep only the latter).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace jbench {

struct ElfInfo {
  bool is_elf = false;      // the file starts with the ELF magic
  std::string error;        // empty when the file was parsed completely; problems joined by "; "
  std::string type;         // "exec", "dyn", "rel", "core", or "unknown(<n>)"
  std::string machine;      // "x86_64", "aarch64", "riscv", ... or "em_<n>"
  std::string build_id;     // lowercase hex of the NT_GNU_BUILD_ID note; "" when there is none
  bool has_symtab = false;  // a SHT_SYMTAB section (not stripped)
  bool has_debug_info = false;  // a .debug_info (or .zdebug_info) section with contents
  // <root>/usr/lib/debug/.build-id/<first 2 hex>/<rest>.debug, when that file exists.
  std::optional<std::string> separate_debug_file;
  std::string separate_debug_via;  // "build-id" when set here; "gnu_debuglink" (resolve_debuglink)
  // The .gnu_debuglink section: the separate debug file's name and the CRC-32 it must have.
  std::string debuglink;  // "" when there is none
  std::uint32_t debuglink_crc = 0;
};

// `root` prefixes the separate debug file lookup only ("" = the real filesystem).
ElfInfo read_elf_info(const std::string& path, const std::string& root = "");

// The same over an open descriptor (read with pread; its offset is not used). `label` names the
// file in errors.
ElfInfo read_elf_info_fd(int fd, const std::string& label, const std::string& root = "");

// Where the .gnu_debuglink of the binary at `binary_path` points, as GDB looks for it: beside the
// binary, in .debug/ beside it, then under <root>/usr/lib/debug/<the binary's directory>. Only a
// file whose CRC-32 is the one the link records is taken; nullopt when none is.
std::optional<std::string> resolve_debuglink(const std::string& binary_path, const ElfInfo& info,
                                             const std::string& root = "");

}  // namespace jbench
