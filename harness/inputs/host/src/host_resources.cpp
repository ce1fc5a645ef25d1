#include "jbench/host/host_resources.h"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <optional>
#include <sstream>

#include "jbench/common/cpus.h"
#include "jbench/common/small_file.h"

namespace jbench {
namespace {

std::optional<std::uint64_t> meminfo_total_kib(const std::string& root) {
  std::ifstream in(root + "/proc/meminfo");
  std::string key;
  std::uint64_t value = 0;
  std::string unit;
  while (in >> key >> value >> unit) {
    if (key == "MemTotal:") return value;
  }
  return std::nullopt;
}

// "0-3,6,8-9" -> 7
std::optional<std::uint32_t> count_cpu_list(const std::string& list) {
  std::uint32_t count = 0;
  std::stringstream ss(list);
  std::string range;
  while (std::getline(ss, range, ',')) {
    unsigned lo = 0;
    unsigned hi = 0;
    if (std::sscanf(range.c_str(), "%u-%u", &lo, &hi) == 2 && hi >= lo) {
      count += hi - lo + 1;
    } else if (std::sscanf(range.c_str(), "%u", &lo) == 1) {
      count += 1;
    } else {
      return std::nullopt;
    }
  }
  return count > 0 ? std::optional(count) : std::nullopt;
}

// cgroup v2 "cpu.max": "max 100000" (no quota) or "<quota> <period>".
std::optional<std::uint32_t> cgroup_cpu_limit(const std::string& root) {
  auto line = read_first_line(root + "/sys/fs/cgroup/cpu.max");
  if (!line) return std::nullopt;
  std::uint64_t quota = 0;
  std::uint64_t period = 0;
  if (std::sscanf(line->c_str(), "%lu %lu", &quota, &period) != 2 || period == 0) {
    return std::nullopt;
  }
  return static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (quota + period - 1) / period));
}

std::optional<std::uint64_t> cgroup_memory_limit_mib(const std::string& root) {
  auto line = read_first_line(root + "/sys/fs/cgroup/memory.max");
  if (!line || *line == "max") return std::nullopt;
  std::uint64_t bytes = 0;
  if (std::sscanf(line->c_str(), "%lu", &bytes) != 1) return std::nullopt;
  return bytes / (1024 * 1024);
}

}  // namespace

HostResources probe_host_resources(const std::string& root) {
  HostResources host;
  std::optional<std::uint32_t> cores;
  if (root.empty()) {
    if (const Result<unsigned> cpus = usable_cpus()) cores = *cpus;
  }
  if (!cores) {
    if (auto list = read_first_line(root + "/sys/devices/system/cpu/online")) {
      cores = count_cpu_list(*list);
    }
  }
  host.cores = cores.value_or(1);
  if (auto limit = cgroup_cpu_limit(root)) host.cores = std::min(host.cores, *limit);

  host.memory_mib = meminfo_total_kib(root).value_or(0) / 1024;
  if (auto limit = cgroup_memory_limit_mib(root)) {
    host.memory_mib = host.memory_mib == 0 ? *limit : std::min(host.memory_mib, *limit);
  }
  return host;
}

}  // namespace jbench
