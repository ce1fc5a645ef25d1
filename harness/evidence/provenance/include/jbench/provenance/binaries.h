// The binaries behind a measurement: the files a process runs, hashed and identified.
//
//   nlohmann::json libs = process_provenance(worker_pid);   // exe first, then mapped libraries
//   nlohmann::json one = describe_binary("/usr/bin/sqlite3");
//
// describe_binary results are cached for the life of the process, keyed by path, device, inode,
// size and mtime, so describing 32 workers of one binary hashes it and its libraries once.
// Descriptions are made from one open descriptor (stat, hash and ELF read all see the same file).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace jbench {

// {"path", "size_bytes", "sha256", "build_id" (null if none), "has_debug_info", "has_symtab",
//  "separate_debug_file" (null if none), "separate_debug_via" ("build-id" or "gnu_debuglink"; null
//  if none), "debuglink" (the .gnu_debuglink name, null if none), "is_elf", "elf_type",
//  "machine"}, plus "elf_error" when
// the ELF reader found a problem (a non-ELF file included), "error" when the file could not be
// opened or hashed (then only "path" and "error" are certain), and "changed_while_reading": true
// when its size or mtime changed during the description (such results are not cached).
// `read_path`, when given, is where the content is read from (e.g. /proc/<pid>/exe for a binary
// deleted or replaced since it was started); "path" still reports `path`.
nlohmann::json describe_binary(const std::string& path, const std::string& read_path = "");

struct MappedFile {
  std::string path;  // as the kernel reports it, without the " (deleted)" suffix
  bool deleted = false;
  std::string address_range;  // "<start>-<end>" of its first executable mapping (hex)
};

// File-backed executable mappings of a /proc/<pid>/maps text, distinct by path, in order of first
// appearance. Skipped: anonymous mappings, pseudo-paths ("[vdso]", "[vsyscall]", "[anon:...]").
std::vector<MappedFile> parse_proc_maps(std::string_view maps_text);

struct MappedFiles {
  std::string exe;  // readlink /proc/<pid>/exe ("" when it could not be read: see error)
  bool exe_deleted = false;
  std::vector<MappedFile> libraries;  // executable mappings other than the exe
  std::string error;                  // why the exe or the maps could not be read
};

// `root` prefixes /proc ("" = the real filesystem).
MappedFiles mapped_files(pid_t pid, const std::string& root = "");

// A JSON array: describe_binary of the exe (with "role": "exe") then of each library ("role":
// "mapped"), each with "deleted". The exe is read through /proc/<pid>/exe so its digest is that
// of the running file even if the path was replaced since; a deleted library is read through
// /proc/<pid>/map_files when permitted. If the process cannot be read, the array holds one
// {"pid", "error"} object.
nlohmann::json process_provenance(pid_t pid);

// The same descriptions, each with the path its bytes can be read from while the process lives
// ("" for an entry that could not be described).
struct ProcessBinary {
  nlohmann::json description;
  std::string read_path;
};
std::vector<ProcessBinary> process_binaries(pid_t pid);

struct DescribeCacheStats {
  std::uint64_t hits = 0;
  std::uint64_t misses = 0;
};
DescribeCacheStats describe_cache_stats();

}  // namespace jbench
