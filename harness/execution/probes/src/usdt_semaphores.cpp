#include "jbench/probes/usdt_semaphores.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

namespace jbench {
namespace {

// The difference between where `path` is loaded in `pid` and its linked addresses, from the
// first mapping of the file whose offset a load segment holds.
std::optional<std::uint64_t> load_bias(pid_t pid, const std::string& path,
                                       const elf::FunctionTable& functions) {
  std::error_code ec;
  const std::string wanted = std::filesystem::canonical(path, ec).string();
  std::ifstream maps(fmt::format("/proc/{}/maps", pid));
  for (std::string line; std::getline(maps, line);) {
    std::istringstream fields(line);
    std::string range, perms, offset, dev, inode, mapped;
    fields >> range >> perms >> offset >> dev >> inode;
    std::getline(fields >> std::ws, mapped);
    if (mapped != wanted) continue;
    const std::uint64_t start = std::stoull(range.substr(0, range.find('-')), nullptr, 16);
    const auto vaddr = functions.vaddr_of(std::stoull(offset, nullptr, 16));
    if (vaddr) return start - *vaddr;
  }
  return std::nullopt;
}

}  // namespace

Status add_to_semaphores(pid_t pid, const std::string& module_path,
                         const std::vector<SdtProbe>& probes, const elf::FunctionTable& functions,
                         int delta) {
  const auto bias = load_bias(pid, module_path, functions);
  if (!bias) {
    return Error{fmt::format("{} is not mapped in process {}", module_path, pid), 0,
                 ErrorKind::input};
  }
  std::set<std::uint64_t> semaphores;
  for (const SdtProbe& p : probes) {
    if (p.semaphore != 0) semaphores.insert(*bias + p.semaphore);
  }
  const std::string mem = fmt::format("/proc/{}/mem", pid);
  const int fd = ::open(mem.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    return Error{fmt::format("cannot open {}: {}", mem, std::strerror(errno)), errno,
                 ErrorKind::host};
  }
  std::vector<std::pair<std::uint64_t, std::uint16_t>> values;
  Status done;
  for (const std::uint64_t at : semaphores) {
    std::uint16_t v = 0;
    if (::pread(fd, &v, sizeof v, static_cast<off_t>(at)) != sizeof v) {
      done = Error{fmt::format("cannot read the semaphore at 0x{:x} of process {}: {}", at, pid,
                               std::strerror(errno)),
                   errno, ErrorKind::io};
      break;
    }
    values.emplace_back(at, static_cast<std::uint16_t>(v + delta));
  }
  for (std::size_t i = 0; done && i < values.size(); ++i) {
    if (::pwrite(fd, &values[i].second, sizeof(std::uint16_t),
                 static_cast<off_t>(values[i].first)) != sizeof(std::uint16_t)) {
      done = Error{fmt::format("cannot write the semaphore at 0x{:x} of process {}: {}",
                               values[i].first, pid, std::strerror(errno)),
                   errno, ErrorKind::io};
    }
  }
  ::close(fd);
  return done;
}

}  // namespace jbench
