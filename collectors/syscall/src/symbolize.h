// On-CPU samples' addresses named: a process's executable mappings (/proc/<pid>/maps, read while
// it runs) and the ELF symbol tables of the files behind them (.symtab, else .dynsym). A frame
// with no symbol keeps its file and offset ("libsqlite3.so.0+0x5a3f0"); one in no file mapping
// keeps its address. Nothing is guessed: an address is named only by a symbol that covers it.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "jbench/elf/functions.h"

namespace jbench::collectors::syscall_detail {

struct Mapping {
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint64_t offset = 0;  // into the file
  std::string path;
};

// A C++ symbol demangled ("_ZN3foo3barEv" -> "foo::bar()"); any other name as it is.
std::string demangled(const char* name);

// The executable file mappings of `pid`, in address order; empty when it cannot be read.
std::vector<Mapping> read_executable_maps(pid_t pid);

// The root frame of a stack whose walk left the executable mappings: the frames below it are
// real, the callers above it unknown.
inline constexpr const char* kUnwindEnded = "[callers unknown: a frame without a frame pointer]";

struct Frame {
  std::string function;      // demangled; empty when no symbol covers the address
  std::string module;        // the file's last path component; empty outside every file mapping
  std::uint64_t offset = 0;  // into the module's file, or the address itself without a module
  std::string text() const;  // "function (module)", "module+0x…", "0x…"
};

class Symbolizer {
 public:
  Symbolizer();
  ~Symbolizer();
  // `ip` in a process with `maps`; `return_address`: a caller's frame, looked up at ip - 1.
  Frame frame(std::uint64_t ip, const std::vector<Mapping>& maps, bool return_address);
  // Frame `index` of a stack walked by frame pointers (leaf first), as text; kUnwindEnded for a
  // caller outside every executable file mapping of `maps`: the walk went through a function
  // without a frame pointer (libc's, a distribution's library), so what it read as return
  // addresses from there on is data, not frames. The caller stops at it.
  std::string stack_frame(std::uint64_t ip, const std::vector<Mapping>& maps, std::size_t index);

 private:
  const elf::FunctionTable& symbols_of(const std::string& path);
  std::map<std::string, std::unique_ptr<elf::FunctionTable>> files_;
};

}  // namespace jbench::collectors::syscall_detail
