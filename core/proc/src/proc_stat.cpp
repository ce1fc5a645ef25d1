#include "jbench/proc/proc_stat.h"

#include <dirent.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace jbench::proc {

std::optional<ProcStat> parse_proc_stat(const std::string& text) {
  const auto open = text.find('(');
  const auto close = text.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
  ProcStat s;
  s.pid = static_cast<pid_t>(std::strtol(text.c_str(), nullptr, 10));
  s.comm = text.substr(open + 1, close - open - 1);
  std::istringstream rest(text.substr(close + 1));
  // Fields after comm, 1-based as in proc(5): 3 state, 4 ppid, 5 pgrp, 6 session, ...,
  // 10 minflt, 12 majflt, 14 utime, 15 stime, ..., 20 num_threads, 21 itrealvalue, 22 starttime.
  std::vector<std::string> f;
  std::string token;
  while (rest >> token) f.push_back(token);
  if (f.size() < 20) return std::nullopt;
  const auto num = [&](std::size_t field) {
    return std::strtoull(f[field - 3].c_str(), nullptr, 10);
  };
  s.state = f[0].empty() ? '?' : f[0][0];
  s.ppid = static_cast<pid_t>(num(4));
  s.pgrp = static_cast<pid_t>(num(5));
  s.session = static_cast<pid_t>(num(6));
  s.minor_faults = num(10);
  s.major_faults = num(12);
  s.utime_ticks = num(14);
  s.stime_ticks = num(15);
  s.threads = static_cast<std::int64_t>(num(20));
  s.start_time_ticks = num(22);
  return s;
}

std::optional<ProcStat> read_proc_stat(pid_t pid, const std::string& root) {
  std::ifstream in(root + "/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!in || !std::getline(in, text)) return std::nullopt;
  return parse_proc_stat(text);
}

std::string read_boot_id(const std::string& root) {
  std::ifstream in(root + "/proc/sys/kernel/random/boot_id");
  std::string id;
  std::getline(in, id);
  return id;
}

std::vector<ProcStat> processes_in_group(pid_t group, const std::string& root) {
  std::vector<ProcStat> out;
  DIR* dir = opendir((root + "/proc").c_str());
  if (!dir) return out;
  while (dirent* entry = readdir(dir)) {
    char* end = nullptr;
    const long pid = std::strtol(entry->d_name, &end, 10);
    if (*end != '\0' || pid <= 0) continue;
    if (auto s = read_proc_stat(static_cast<pid_t>(pid), root); s && s->pgrp == group) {
      out.push_back(*s);
    }
  }
  closedir(dir);
  return out;
}

std::uint64_t ticks_to_ns(std::uint64_t ticks) {
  static const long hz = sysconf(_SC_CLK_TCK);
  return ticks * (1'000'000'000ULL / static_cast<std::uint64_t>(hz > 0 ? hz : 100));
}

}  // namespace jbench::proc
