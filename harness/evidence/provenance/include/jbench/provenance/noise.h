// How busy the host was around a measurement, and how much of that was us.
//
//   NoiseSample before = sample_noise(std::chrono::milliseconds(500), {getpid(), worker_pid});
//   manifest["noise"] = to_json(before);
//
// Instantaneous: load averages and procs_running (/proc/loadavg), the cpufreq governor of each
// online CPU. Over `window` (two samples of /proc/stat and of /proc/<pid>/stat, `window` apart):
//   busy_share    non-idle CPU time of the whole host / total CPU time
//   ours_share    utime+stime of the pids in `ours` (all their threads; not their children)
//                 / total CPU time
//   others_share  max(0, busy_share - ours_share)
// Shares are fractions of the host's capacity: 1.0 = every online CPU busy for the whole window.
// Clock-tick granularity (USER_HZ, usually 100/s per CPU) limits precision on short windows.
// sample_noise sleeps for `window`; a window of 0 gives only the instantaneous values.
#pragma once

#include <sys/types.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace jbench {

struct GovernorReading {
  unsigned cpu = 0;
  std::string governor;     // e.g. "performance"; empty when unavailable
  std::string unavailable;  // why the governor could not be read
};

struct NoiseSample {
  std::chrono::milliseconds window{0};

  std::optional<std::array<double, 3>> load_average;  // 1, 5, 15 minutes
  std::optional<std::uint64_t> procs_running;         // runnable scheduling entities now
  std::optional<std::uint64_t> procs_total;
  std::string loadavg_unavailable;  // why the three above are empty

  std::vector<GovernorReading> governors;  // one per online CPU
  std::string governors_unavailable;       // set when the online CPUs could not be listed

  std::vector<pid_t> ours;
  std::vector<pid_t> ours_lost;  // in `ours` but unreadable at the start or the end (exited?):
                                 // their time in the window is not counted

  std::optional<double> busy_share;
  std::optional<double> ours_share;
  std::optional<double> others_share;
  std::string shares_unavailable;  // why the shares are empty (window 0, unreadable /proc/stat)
  std::uint64_t total_ticks = 0;   // CPU time in the window, all CPUs, clock ticks
  std::uint64_t busy_ticks = 0;
  std::uint64_t ours_ticks = 0;
};

// `root` prefixes every file read ("" = the real filesystem), so a test can supply proc/ and sys/.
NoiseSample sample_noise(std::chrono::milliseconds window, std::vector<pid_t> ours,
                         const std::string& root = "");

// {"window_ms", "load_average": {"1m","5m","15m"}, "procs_running", "procs_total",
//  "cpu_governors": [{"cpu", "governor"}|{"cpu", "unavailable"}],
//  "cpu_share": {"busy","ours","others","ticks":{"total","busy","ours"}},
//  "ours_pids", "ours_pids_lost"}; anything unreadable is {"unavailable": "<why>"}.
nlohmann::json to_json(const NoiseSample& sample);

}  // namespace jbench
