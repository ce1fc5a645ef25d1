// Sessions that measure at the same moments (a duet, docs/compare.md): before each run's measure
// phase a party says it has reached that run and waits until every other party has too, so the
// measure windows of run k start together on every side, however much one side's start-up,
// dataset builds or scheduling drifted. Parties meet through files in one folder (one host):
//   <dir>/<pid>.joined   a party exists
//   <dir>/<pid>.run-<k>  it has reached run k's measure phase
//   <dir>/<pid>.end      it has ended (no one waits for it any more)
// The wait is event-driven (inotify on the folder; a recheck every few ms where there is no
// inotify, folder_watch.h) and bounded: a party that does not come in
// time breaks the lockstep for the rest of the session, said in every later run's record, and
// the session goes on alone rather than fail.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "folder_watch.h"
#include "jbench/common/result.h"

namespace jbench::run {

class Lockstep {
 public:
  // Joins the parties meeting in `dir` (created if missing); `parties` counts this one.
  static Result<Lockstep> join(const std::string& dir, std::uint32_t parties,
                               WatchKind watch = native_watch_kind());
  Lockstep(Lockstep&& other) noexcept;
  Lockstep& operator=(Lockstep&&) = delete;
  Lockstep(const Lockstep&) = delete;
  ~Lockstep();  // marks this party ended

  // Marks run `k` (1-based) reached and waits until each other party has reached it or ended,
  // or until `deadline_ns` (CLOCK_MONOTONIC). What happened, for the run's record:
  // {"run": k, "met": bool, "waited_ns": "...", "reason": "..." (when not met)}.
  nlohmann::json meet(std::uint64_t k, std::uint64_t deadline_ns);
  // Marks run `k` reached without waiting: a run that ended before its measure phase must not
  // keep the others waiting for it. Marking a run twice is harmless.
  void pass(std::uint64_t k) const;

 private:
  Lockstep(std::string dir, std::uint32_t parties, FolderWatch watch);
  // The other parties that have reached run k or ended.
  std::uint32_t arrived(std::uint64_t k) const;
  void mark(const std::string& what) const;

  std::string dir_;
  std::uint32_t parties_ = 2;
  FolderWatch watch_;
  bool joined_ = true;  // false once moved from
  std::string broken_;  // why the lockstep was given up; empty while it holds
};

}  // namespace jbench::run
