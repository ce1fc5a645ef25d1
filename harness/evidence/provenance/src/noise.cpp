#include "jbench/provenance/noise.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <thread>

#include "jbench/common/small_file.h"
#include "jbench/common/text.h"
#include "jbench/proc/proc_stat.h"
#include "proc_files.h"

namespace jbench {
namespace {

using provenance_detail::unavailable;

struct HostTicks {
  std::uint64_t total = 0;
  std::uint64_t busy = 0;
};

// The aggregate "cpu" line of /proc/stat: user nice system idle iowait irq softirq steal guest
// guest_nice. guest time is already inside user (and guest_nice inside nice), so it is not
// added again. Idle and iowait are not busy.
bool read_host_ticks(const std::string& root, HostTicks& t, std::string& why) {
  const std::string path = root + "/proc/stat";
  auto text = read_small_file(path, provenance_detail::kMaxProcTextBytes);
  if (!text) {
    why = text.error().message;
    return false;
  }
  std::istringstream in(*text);
  std::string label;
  in >> label;
  if (label != "cpu") {
    why = fmt::format("{} does not start with the aggregate 'cpu' line", path);
    return false;
  }
  std::uint64_t v[8] = {};
  for (auto& x : v) {
    if (!(in >> x)) {
      why = fmt::format("the 'cpu' line of {} has fewer than 8 fields", path);
      return false;
    }
  }
  t = HostTicks{};
  for (const auto x : v) t.total += x;
  t.busy = t.total - v[3] - v[4];
  return true;
}

// utime + stime of /proc/<pid>/stat, through the one stat parser (jbench::proc).
std::optional<std::uint64_t> read_pid_ticks(const std::string& root, pid_t pid) {
  const auto stat = proc::read_proc_stat(pid, root);
  if (!stat) return std::nullopt;
  return stat->utime_ticks + stat->stime_ticks;
}

void read_loadavg(const std::string& root, NoiseSample& s) {
  const std::string path = root + "/proc/loadavg";
  auto line = read_first_line(path);
  if (!line) {
    s.loadavg_unavailable = line.error().message;
    return;
  }
  double l1 = 0, l5 = 0, l15 = 0;
  unsigned long long running = 0, total = 0;
  if (std::sscanf(line->c_str(), "%lf %lf %lf %llu/%llu", &l1, &l5, &l15, &running, &total) != 5) {
    s.loadavg_unavailable = fmt::format("cannot parse {}: '{}'", path, *line);
    return;
  }
  s.load_average = std::array<double, 3>{l1, l5, l15};
  s.procs_running = running;
  s.procs_total = total;
}

void read_governors(const std::string& root, NoiseSample& s) {
  const std::string online_path = root + "/sys/devices/system/cpu/online";
  auto line = read_first_line(online_path);
  if (!line) {
    s.governors_unavailable = line.error().message;
    return;
  }
  auto cpus = provenance_detail::parse_cpu_list(*line);
  if (!cpus) {
    s.governors_unavailable = fmt::format("cannot parse CPU list '{}' in {}", *line, online_path);
    return;
  }
  for (const unsigned cpu : *cpus) {
    GovernorReading g;
    g.cpu = cpu;
    const std::string dir = fmt::format("{}/sys/devices/system/cpu/cpu{}/cpufreq", root, cpu);
    const std::string governor_file = dir + "/scaling_governor";
    auto gov = read_first_line(governor_file);
    if (gov && !trim(*gov).empty()) {
      g.governor = trim(*gov);
    } else {
      const std::string gov_why =
          gov ? fmt::format("{} is empty", governor_file) : gov.error().message;
      const bool has_cpufreq = read_small_file(dir + "/scaling_driver").ok();
      g.unavailable = has_cpufreq ? gov_why
                                  : fmt::format(
                                        "no cpufreq for cpu{} ({}): frequency scaling is "
                                        "not exposed (common in virtual machines)",
                                        cpu, gov_why);
    }
    s.governors.push_back(std::move(g));
  }
}

}  // namespace

NoiseSample sample_noise(std::chrono::milliseconds window, std::vector<pid_t> ours,
                         const std::string& root) {
  NoiseSample s;
  s.window = window < std::chrono::milliseconds(0) ? std::chrono::milliseconds(0) : window;
  std::sort(ours.begin(), ours.end());
  ours.erase(std::unique(ours.begin(), ours.end()), ours.end());
  s.ours = ours;

  if (s.window.count() == 0) {
    s.shares_unavailable = "window is 0 ms: only instantaneous values were sampled";
  } else {
    // Per-pid readings first and host last at the start, the reverse at the end, so the host
    // interval encloses every pid's interval.
    std::map<pid_t, std::uint64_t> start;
    for (const pid_t p : ours) {
      if (auto t = read_pid_ticks(root, p)) start[p] = *t;
    }
    std::string why;
    HostTicks host_start;
    HostTicks host_end;
    const bool have_start = read_host_ticks(root, host_start, why);
    if (have_start) std::this_thread::sleep_for(s.window);
    const bool have_end = have_start && read_host_ticks(root, host_end, why);
    std::uint64_t ours_ticks = 0;
    for (const pid_t p : ours) {
      const auto end = start.count(p) ? read_pid_ticks(root, p) : std::nullopt;
      if (!end || *end < start[p]) {
        s.ours_lost.push_back(p);
        continue;
      }
      ours_ticks += *end - start[p];
    }
    if (!have_start || !have_end) {
      s.shares_unavailable = why;
    } else if (host_end.total <= host_start.total) {
      s.shares_unavailable = fmt::format(
          "no CPU time elapsed in {}/proc/stat during the {} ms window", root, s.window.count());
    } else {
      s.total_ticks = host_end.total - host_start.total;
      s.busy_ticks = host_end.busy >= host_start.busy ? host_end.busy - host_start.busy : 0;
      s.ours_ticks = ours_ticks;
      const double total = static_cast<double>(s.total_ticks);
      s.busy_share = static_cast<double>(s.busy_ticks) / total;
      s.ours_share = static_cast<double>(s.ours_ticks) / total;
      s.others_share = std::max(0.0, *s.busy_share - *s.ours_share);
    }
  }
  read_loadavg(root, s);
  read_governors(root, s);
  return s;
}

nlohmann::json to_json(const NoiseSample& s) {
  nlohmann::json j = nlohmann::json::object();
  j["window_ms"] = s.window.count();
  if (s.load_average) {
    j["load_average"] = {
        {"1m", (*s.load_average)[0]}, {"5m", (*s.load_average)[1]}, {"15m", (*s.load_average)[2]}};
    j["procs_running"] = *s.procs_running;
    j["procs_total"] = *s.procs_total;
  } else {
    j["load_average"] = unavailable(s.loadavg_unavailable);
    j["procs_running"] = unavailable(s.loadavg_unavailable);
    j["procs_total"] = unavailable(s.loadavg_unavailable);
  }
  if (!s.governors_unavailable.empty()) {
    j["cpu_governors"] = unavailable(s.governors_unavailable);
  } else {
    nlohmann::json govs = nlohmann::json::array();
    for (const auto& g : s.governors) {
      if (g.governor.empty()) {
        govs.push_back({{"cpu", g.cpu}, {"unavailable", g.unavailable}});
      } else {
        govs.push_back({{"cpu", g.cpu}, {"governor", g.governor}});
      }
    }
    j["cpu_governors"] = std::move(govs);
  }
  if (s.busy_share) {
    j["cpu_share"] = {
        {"busy", *s.busy_share},
        {"ours", *s.ours_share},
        {"others", *s.others_share},
        {"ticks", {{"total", s.total_ticks}, {"busy", s.busy_ticks}, {"ours", s.ours_ticks}}}};
  } else {
    j["cpu_share"] = unavailable(s.shares_unavailable);
  }
  j["ours_pids"] = s.ours;
  j["ours_pids_lost"] = s.ours_lost;
  return j;
}

}  // namespace jbench
