#include "incarnations.h"

#include <unistd.h>

#include <algorithm>

namespace jbench::collectors::syscall_detail {

std::size_t Incarnations::add(Incarnation incarnation, std::uint64_t from_t_ns) {
  if (auto known = find(incarnation.pid, incarnation.start_time_ticks)) return *known;
  auto& spans = by_pid_[incarnation.pid];
  const std::size_t index = list_.size();
  spans.emplace_back(from_t_ns, index);
  std::sort(spans.begin(), spans.end());
  list_.push_back(std::move(incarnation));
  return index;
}

std::optional<std::size_t> Incarnations::at(pid_t pid, std::uint64_t t_ns) const {
  auto it = by_pid_.find(pid);
  if (it == by_pid_.end() || it->second.empty()) return std::nullopt;
  std::optional<std::size_t> found;
  for (const auto& [from, index] : it->second) {
    if (from <= t_ns || !found) found = index;
    if (from > t_ns) break;
  }
  return found;
}

std::optional<std::size_t> Incarnations::find(pid_t pid, std::uint64_t start_time_ticks) const {
  for (std::size_t i = 0; i < list_.size(); ++i) {
    if (list_[i].pid == pid && list_[i].start_time_ticks == start_time_ticks) return i;
  }
  return std::nullopt;
}

std::uint64_t boottime_ns_to_ticks(std::uint64_t ns) {
  // The kernel divides by NSEC_PER_SEC / USER_HZ (nsec_to_clock_t); USER_HZ is _SC_CLK_TCK.
  const long hz = sysconf(_SC_CLK_TCK);
  const std::uint64_t per_tick = 1'000'000'000ULL / static_cast<std::uint64_t>(hz > 0 ? hz : 100);
  return ns / per_tick;
}

}  // namespace jbench::collectors::syscall_detail
