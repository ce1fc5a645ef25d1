#include "symbolize.h"

#include <cxxabi.h>
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

}  // namespace

std::string demangled(const char* name) {
  int status = 0;
  char* out = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || out == nullptr) return name;
  std::string s(out);
  std::free(out);
  return s;
}

namespace {}  // namespace

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

const elf::FunctionTable& Symbolizer::symbols_of(const std::string& path) {
  auto& slot = files_[path];
  if (!slot) slot = std::make_unique<elf::FunctionTable>(elf::read_function_table_of(path));
  return *slot;
}

std::string Symbolizer::stack_frame(std::uint64_t ip, const std::vector<Mapping>& maps,
                                    std::size_t index) {
  const Frame f = frame(ip, maps, index > 0);
  if (index > 0 && !maps.empty() && f.module.empty()) return kUnwindEnded;
  return f.text();
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
  const elf::FunctionTable& symbols = symbols_of(m->path);
  if (const auto vaddr = symbols.vaddr_of(f.offset)) {
    if (const auto* fn = symbols.covering(*vaddr)) f.function = demangled(fn->name.c_str());
  }
  return f;
}

}  // namespace jbench::collectors::syscall_detail
