// Who a pid was, when: the registered workers, the processes they forked, the ones the harness
// added, each an incarnation (pid, start time in clock ticks since boot). A record is attributed
// by its pid and its time, so a pid reused within a run names the right process.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace jbench::collectors::syscall_detail {

struct Incarnation {
  pid_t pid = 0;
  std::uint64_t start_time_ticks = 0;
  std::optional<std::uint32_t> worker_index;
  pid_t parent = 0;
  std::string origin;  // "registered", "forked" (followed by the collector), "added" (harness)
};

class Incarnations {
 public:
  // Returns the index of the incarnation. Adding the same (pid, start) again returns the first.
  std::size_t add(Incarnation incarnation, std::uint64_t from_t_ns = 0);
  // The incarnation `pid` was at `t_ns`, if any.
  std::optional<std::size_t> at(pid_t pid, std::uint64_t t_ns) const;
  std::optional<std::size_t> find(pid_t pid, std::uint64_t start_time_ticks) const;
  const Incarnation& operator[](std::size_t i) const { return list_[i]; }
  std::size_t size() const { return list_.size(); }
  const std::vector<Incarnation>& list() const { return list_; }

 private:
  std::vector<Incarnation> list_;
  std::map<pid_t, std::vector<std::pair<std::uint64_t, std::size_t>>> by_pid_;  // (from, index)
};

// The kernel's start_boottime (ns) as /proc/<pid>/stat's start time (clock ticks).
std::uint64_t boottime_ns_to_ticks(std::uint64_t ns);

}  // namespace jbench::collectors::syscall_detail
