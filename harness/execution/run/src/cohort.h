// The cohort of a run: every target process incarnation, registered before it does any work.
// Private to jbench::run.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/common/result.h"
#include "jbench/proc/proc_stat.h"

namespace jbench::run {

struct CohortMember {
  std::optional<std::size_t> worker;  // the worker index; empty for a process a worker forked
  pid_t pid = 0;
  pid_t ppid = 0;
  std::string boot_id;
  std::uint64_t start_time_ticks = 0;  // /proc/<pid>/stat field 22: the incarnation
  std::string runtime_id;              // 128-bit, from the worker's hello; empty if forked
  std::string comm;
  std::uint64_t registered_ns = 0;
};

// Why worker `index` (pid `pid`) could not be read from /proc/<pid>/stat `when` ("before it was
// admitted"): it is gone, or the system has no /proc under `proc_root` to read its start time
// from (a build for macOS or FreeBSD, docs/platforms.md).
std::string unreadable_worker(std::size_t index, pid_t pid, std::string_view when,
                              const std::string& proc_root = "");

class Cohort {
 public:
  explicit Cohort(std::string boot_id) : boot_id_(std::move(boot_id)) {}

  // Registers worker `index` from its hello. The hello must name the pid that was spawned (a
  // wrapper that forks the real worker would make every later measurement misattributed), the
  // protocol version 1 and a 128-bit runtime id; the process must still exist.
  // Returns the reason on refusal.
  // A worker admitted before (admit_spawned) is confirmed: the same incarnation, now with its
  // runtime id and its program's name.
  Status register_worker(std::size_t index, pid_t spawned, const nlohmann::json& hello);

  // Admits worker `index`, spawned held before exec, by its pid and start time, so collectors
  // attach to it before its first instruction; its hello then confirms it. Returns the reason on
  // refusal (it is gone).
  Status admit_spawned(std::size_t index, pid_t spawned);

  // Every process of the run's process group (as listed from /proc) that is not yet a member
  // joins as forked. Returns how many joined.
  std::size_t scan_group(const std::vector<proc::ProcStat>& in_group);

  const std::vector<CohortMember>& members() const { return members_; }
  std::vector<pid_t> pids() const;
  nlohmann::json to_json() const;

 private:
  CohortMember worker_member(std::size_t index, const proc::ProcStat& stat) const;
  std::string boot_id_;
  std::vector<CohortMember> members_;
};

}  // namespace jbench::run
