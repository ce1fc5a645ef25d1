#include "jbench/provenance/host_fingerprint.h"

#include <fmt/format.h>
#include <sys/utsname.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "jbench/common/cpus.h"
#include "jbench/common/small_file.h"
#include "jbench/common/text.h"
#include "proc_files.h"

namespace jbench {
namespace {

using provenance_detail::kMaxProcTextBytes;
using provenance_detail::unavailable;

nlohmann::json cpu_model(const std::string& root) {
  const std::string path = root + "/proc/cpuinfo";
  auto text = read_small_file(path, kMaxProcTextBytes);
  if (!text) return unavailable(text.error().message);
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    if (trim(line.substr(0, colon)) == "model name") return trim(line.substr(colon + 1));
  }
  return unavailable(fmt::format("no 'model name' line in {}", path));
}

nlohmann::json cpus_online(const std::string& root) {
  const std::string path = root + "/sys/devices/system/cpu/online";
  auto line = read_first_line(path);
  if (!line) return unavailable(line.error().message);
  auto cpus = provenance_detail::parse_cpu_list(*line);
  if (!cpus) return unavailable(fmt::format("cannot parse CPU list '{}' in {}", *line, path));
  return cpus->size();
}

nlohmann::json cpus_usable() {
  const Result<unsigned> cpus = usable_cpus();
  if (!cpus) return unavailable(cpus.error().message);
  return *cpus;
}

nlohmann::json memory_total_mib(const std::string& root) {
  const std::string path = root + "/proc/meminfo";
  auto text = read_small_file(path, kMaxProcTextBytes);
  if (!text) return unavailable(text.error().message);
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line)) {
    unsigned long long kib = 0;
    char unit[8] = {};
    if (std::sscanf(line.c_str(), "MemTotal: %llu %7s", &kib, unit) == 2) {
      if (std::strcmp(unit, "kB") != 0) {
        return unavailable(fmt::format("unexpected MemTotal unit '{}' in {}", unit, path));
      }
      return kib / 1024;
    }
  }
  return unavailable(fmt::format("no MemTotal line in {}", path));
}

nlohmann::json one_line(const std::string& path) {
  auto line = read_first_line(path);
  if (!line) return unavailable(line.error().message);
  const std::string value = trim(*line);
  if (value.empty()) return unavailable(fmt::format("{} is empty", path));
  return value;
}

}  // namespace

nlohmann::json host_fingerprint(const std::string& root) {
  nlohmann::json host = nlohmann::json::object();
  host["cpu_model"] = cpu_model(root);
  host["cpus_online"] = cpus_online(root);
  host["cpus_usable"] = cpus_usable();
  host["memory_total_mib"] = memory_total_mib(root);
  utsname u{};
  if (uname(&u) == 0) {
    host["kernel"] = {{"sysname", u.sysname},
                      {"release", u.release},
                      {"version", u.version},
                      {"machine", u.machine}};
    host["hostname"] = u.nodename;
  } else {
    const std::string why = fmt::format("uname: {}", std::strerror(errno));
    host["kernel"] = unavailable(why);
    host["hostname"] = unavailable(why);
  }
  host["boot_id"] = one_line(root + "/proc/sys/kernel/random/boot_id");
  host["clocksource"] =
      one_line(root + "/sys/devices/system/clocksource/clocksource0/current_clocksource");
  return host;
}

}  // namespace jbench
