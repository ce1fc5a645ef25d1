#include "process_map.h"

#include <fmt/format.h>

#include <set>

#include "jb_events_writer_thread.h"

namespace jbench::exports {

void ProcessMap::add_thread(const TrackId& id, bool bridge_writer) {
  bool& writer = processes_[{id.run, id.pid, id.start_time_ticks}].threads[id.tid];
  writer = writer || bridge_writer;
}

void ProcessMap::merge(const ProcessMap& other) {
  for (const auto& [key, p] : other.processes_) {
    for (const auto& [tid, writer] : p.threads) {
      add_thread({std::get<0>(key), std::get<1>(key), std::get<2>(key), tid}, writer);
    }
  }
}

void ProcessMap::assign(const std::vector<const RunInput*>& runs) {
  std::set<std::int64_t> pids;
  for (const auto& [key, p] : processes_) {
    if (!pids.insert(std::get<1>(key)).second) synthetic_ = true;
  }
  std::int64_t next = 1;
  for (auto& [key, p] : processes_) {
    const auto& [run, pid, ticks] = key;
    const RunInput& r = *runs.at(run);
    const std::string role = who(r, pid, ticks);
    p.out_pid = synthetic_ ? next++ : pid;
    p.name = synthetic_ ? fmt::format(
                              "{} (pid {}, {}; synthetic pid {}: pids repeat across the "
                              "exported incarnations)",
                              role, pid, r.id, p.out_pid)
                        : fmt::format("{} (pid {}, {})", role, pid, r.id);
  }
}

std::string ProcessMap::who(const RunInput& r, std::int64_t pid, std::uint64_t ticks) {
  std::optional<std::size_t> worker;
  bool registered = false;
  for (const Incarnation& inc : r.cohort) {
    if (inc.pid == pid && inc.start_time_ticks == ticks) {
      worker = inc.worker;
      registered = true;
    }
  }
  return worker       ? fmt::format("worker {}", *worker)
         : registered ? std::string("forked process")
                      : std::string("unregistered process");
}

const std::string& ProcessMap::add_named(const TrackId& id, const RunInput& r) {
  ProcessTrack& p = processes_[{id.run, id.pid, id.start_time_ticks}];
  p.out_pid = id.pid;
  p.name = fmt::format("{} (pid {}, {})", who(r, id.pid, id.start_time_ticks), id.pid, r.id);
  return p.name;
}

std::int64_t ProcessMap::out_pid(const TrackId& id) const {
  const IncarnationKey key{id.run, id.pid, id.start_time_ticks};
  if (!cached_ || cached_key_ != key) {
    const auto it = processes_.find(key);
    if (it == processes_.end()) return id.pid;  // not seen by the first pass: cannot happen
    cached_ = &it->second;
    cached_key_ = key;
  }
  return cached_->out_pid;
}

std::string ProcessMap::thread_name(std::int64_t pid, std::int64_t tid, bool bridge_writer) {
  if (bridge_writer) return fmt::format("{} (observer)", JB_EVENTS_WRITER_THREAD_NAME);
  if (tid == pid) return fmt::format("main thread (tid {})", tid);
  return fmt::format("thread {}", tid);
}

}  // namespace jbench::exports
