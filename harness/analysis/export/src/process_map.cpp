#include "process_map.h"

#include <fmt/format.h>

#include <set>

#include "jb_events_writer_thread.h"

namespace jbench::exports {
namespace {

IncarnationKey key_of(const TrackId& id) { return {id.run, {id.pid, id.start_time_ticks}}; }

}  // namespace

void ProcessMap::add_thread(const TrackId& id, bool bridge_writer) {
  bool& writer = processes_[key_of(id)].threads[id.tid];
  writer = writer || bridge_writer;
}

void ProcessMap::merge(const ProcessMap& other) {
  for (const auto& [key, p] : other.processes_) {
    auto& threads = processes_[key].threads;
    for (const auto& [tid, writer] : p.threads) {
      bool& mine = threads[tid];
      mine = mine || writer;
    }
  }
}

void ProcessMap::assign(const std::vector<const RunInput*>& runs) {
  std::set<std::int64_t> pids;
  for (const auto& [key, p] : processes_) {
    if (!pids.insert(key.who.pid).second) synthetic_ = true;
  }
  std::int64_t next = 1;
  for (auto& [key, p] : processes_) {
    const std::int64_t pid = key.who.pid;
    const RunInput& r = *runs.at(key.run);
    const std::string role = who(r, key.who);
    p.out_pid = synthetic_ ? next++ : pid;
    p.name = synthetic_ ? fmt::format(
                              "{} (pid {}, {}; synthetic pid {}: pids repeat across the "
                              "exported incarnations)",
                              role, pid, r.id, p.out_pid)
                        : fmt::format("{} (pid {}, {})", role, pid, r.id);
  }
}

std::string ProcessMap::who(const RunInput& r, const IncarnationId& id) {
  std::optional<std::size_t> worker;
  bool registered = false;
  for (const Incarnation& inc : r.cohort) {
    if (IncarnationId{inc.pid, inc.start_time_ticks} == id) {
      worker = inc.worker;
      registered = true;
    }
  }
  return worker       ? fmt::format("worker {}", *worker)
         : registered ? std::string("forked process")
                      : std::string("unregistered process");
}

const std::string& ProcessMap::add_named(const TrackId& id, const RunInput& r) {
  const IncarnationKey key = key_of(id);
  ProcessTrack& p = processes_[key];
  p.out_pid = id.pid;
  p.name = fmt::format("{} (pid {}, {})", who(r, key.who), id.pid, r.id);
  return p.name;
}

std::int64_t ProcessMap::out_pid(const TrackId& id) const {
  const IncarnationKey key = key_of(id);
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
