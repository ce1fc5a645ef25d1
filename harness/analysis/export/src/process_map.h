// What each track of a Chrome trace is called and which pid it is written under: one process
// per incarnation (named "worker N (pid P, <run id>)"), one thread per tid, the bridge's writer
// thread named as the observer's. Built from a first pass over the records (CatalogSink), since
// the names are written before the events.
//
// Pids are the OS's, unless two exported incarnations share one (several runs in one file,
// or a pid reused within a run): then every incarnation gets a synthetic pid, 1, 2, ... in run
// and pid order, and its name says so — one rule for the whole file, so no pid is ambiguous.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bundle_input.h"
#include "jbench/common/incarnation_id.h"
#include "timeline.h"

namespace jbench::exports {

// An incarnation of one of the exported runs: the run's index and the process's identity.
struct IncarnationKey {
  std::size_t run = 0;
  IncarnationId who;
  auto operator<=>(const IncarnationKey&) const = default;
};

struct ProcessTrack {
  std::int64_t out_pid = 0;
  std::string name;
  std::map<std::int64_t, bool> threads;  // tid -> is the bridge's writer thread
};

class ProcessMap {
 public:
  void add_thread(const TrackId& id, bool bridge_writer);
  void merge(const ProcessMap& other);
  // Gives every incarnation its pid and name; `runs` are the exported runs, by index.
  void assign(const std::vector<const RunInput*>& runs);

  bool synthetic() const { return synthetic_; }
  const std::map<IncarnationKey, ProcessTrack>& processes() const { return processes_; }
  std::int64_t out_pid(const TrackId& id) const;
  // One incarnation named under its OS pid as it first appears (the one-pass export, whose
  // plan has made sure no two exported incarnations share a pid); returns its name.
  const std::string& add_named(const TrackId& id, const RunInput& run);
  static std::string thread_name(std::int64_t pid, std::int64_t tid, bool bridge_writer);

 private:
  static std::string who(const RunInput& run, const IncarnationId& id);
  std::map<IncarnationKey, ProcessTrack> processes_;
  bool synthetic_ = false;
  mutable const ProcessTrack* cached_ = nullptr;
  mutable IncarnationKey cached_key_{};
};

class CatalogSink final : public TimelineSink {
 public:
  explicit CatalogSink(ProcessMap& map) : map_(map) {}
  void thread_seen(const TrackId& id, bool bridge_writer) override {
    map_.add_thread(id, bridge_writer);
  }

 private:
  ProcessMap& map_;
};

}  // namespace jbench::exports
