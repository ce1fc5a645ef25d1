#include "cohort.h"

#include <fmt/format.h>
#include <unistd.h>

#include "jbench/common/clock.h"
#include "jbench/proc/proc_stat.h"
#include "jbench/proc/worker_hello.h"

namespace jbench::run {

std::string unreadable_worker(std::size_t index, pid_t pid, std::string_view when,
                              const std::string& proc_root) {
  if (::access((proc_root + "/proc/self/stat").c_str(), R_OK) != 0) {
    return fmt::format(
        "worker {} (pid {}) cannot be admitted: this system has no /proc/<pid>/stat to read its "
        "start time from, which identifies a worker (docs/platforms.md)",
        index, pid);
  }
  return fmt::format("worker {} (pid {}) is gone {}", index, pid, when);
}

Status Cohort::register_worker(std::size_t index, pid_t spawned, const nlohmann::json& hello) {
  if (Status proven = proc::check_worker_hello(hello, spawned, fmt::format("worker {}", index));
      !proven) {
    return proven;
  }
  const auto stat = proc::read_proc_stat(spawned);
  if (!stat) return Error{unreadable_worker(index, spawned, "before registration")};
  for (const auto& m : members_) {
    if (!m.runtime_id.empty() && m.runtime_id == hello["runtime_id"]) {
      return Error{fmt::format("worker {} reuses the runtime_id of worker {}", index, *m.worker), 0,
                   ErrorKind::input};
    }
  }
  for (auto& m : members_) {
    if (m.worker != index) continue;
    if (m.pid != spawned || m.start_time_ticks != stat->start_time_ticks) {
      return Error{fmt::format("worker {} (pid {}) is not the process admitted before its exec",
                               index, spawned),
                   0, ErrorKind::input};
    }
    m.runtime_id = hello["runtime_id"].get<std::string>();
    m.comm = stat->comm;  // the program's, now that it runs
    return {};
  }
  // Not admitted before (a spawner that does not hold before exec): registered now.
  members_.push_back(worker_member(index, *stat));
  members_.back().runtime_id = hello["runtime_id"].get<std::string>();
  return {};
}

CohortMember Cohort::worker_member(std::size_t index, const proc::ProcStat& stat) const {
  CohortMember member;
  member.worker = index;
  member.pid = stat.pid;
  member.ppid = stat.ppid;
  member.boot_id = boot_id_;
  member.start_time_ticks = stat.start_time_ticks;
  member.comm = stat.comm;
  member.registered_ns = monotonic_ns();
  return member;
}

Status Cohort::admit_spawned(std::size_t index, pid_t spawned) {
  const auto stat = proc::read_proc_stat(spawned);
  if (!stat) return Error{unreadable_worker(index, spawned, "before it was admitted")};
  members_.push_back(worker_member(index, *stat));
  return {};
}

std::size_t Cohort::scan_group(const std::vector<proc::ProcStat>& in_group) {
  std::size_t joined = 0;
  for (const auto& stat : in_group) {
    bool known = false;
    for (const auto& m : members_) {
      known = known || (m.pid == stat.pid && m.start_time_ticks == stat.start_time_ticks);
    }
    if (known || stat.state == 'Z') continue;
    CohortMember member;
    member.pid = stat.pid;
    member.ppid = stat.ppid;
    member.boot_id = boot_id_;
    member.start_time_ticks = stat.start_time_ticks;
    member.comm = stat.comm;
    member.registered_ns = monotonic_ns();
    members_.push_back(std::move(member));
    ++joined;
  }
  return joined;
}

std::vector<pid_t> Cohort::pids() const {
  std::vector<pid_t> out;
  for (const auto& m : members_) out.push_back(m.pid);
  return out;
}

nlohmann::json Cohort::to_json() const {
  nlohmann::json members = nlohmann::json::array();
  for (const auto& m : members_) {
    members.push_back({{"worker", m.worker ? nlohmann::json(*m.worker) : nlohmann::json(nullptr)},
                       {"pid", m.pid},
                       {"ppid", m.ppid},
                       {"boot_id", m.boot_id},
                       {"start_time_ticks", std::to_string(m.start_time_ticks)},
                       {"runtime_id", m.runtime_id.empty() ? nlohmann::json(nullptr)
                                                           : nlohmann::json(m.runtime_id)},
                       {"comm", m.comm},
                       {"forked", !m.worker.has_value()},
                       {"registered_ns", std::to_string(m.registered_ns)}});
  }
  return {{"boot_id", boot_id_}, {"members", members}};
}

}  // namespace jbench::run
