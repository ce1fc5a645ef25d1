// A collector's entry in run.json (docs/events.md, "The collector's entry in run.json"), and the
// lifecycle facts it proves, which finish() turns into one status word by the one rule
// (status.h).
//
//   CollectorEntry e{.name = "bridge", .backend = "usdt-bridge"};
//   ... e.attach_verified = ...; e.records = ...; e.ended = Ended::exit(0);
//   finish(e, workers);      // e.status is now ok / no_events_observed / collector_failed
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "jbench/collectors/api/status.h"

namespace jbench::collectors {

struct Ended {
  std::string how = "exit";  // exit | signal
  int code = 0;
  int signal = 0;
  static Ended exit(int code) { return {"exit", code, 0}; }
  static Ended killed(int signal) { return {"signal", 0, signal}; }
  nlohmann::json to_json() const;
};

struct CollectorEntry {
  std::string name;
  std::string backend;
  std::string setting;                       // light | full | on
  Status status = Status::collector_failed;  // set by finish(), not_requested or not_available
  std::string reason;                        // why it failed, was not requested or is not available
  std::string remediation;
  std::vector<std::string> raw;  // files inside the run directory ("raw/...")
  std::optional<std::uint64_t> started_ns;
  std::optional<std::uint64_t> attached_ns;
  bool attach_verified = false;
  std::vector<std::size_t> canaries_seen;  // worker indexes
  std::optional<Ended> ended;
  std::uint64_t records = 0;
  std::uint64_t dropped = 0;
  std::uint64_t malformed = 0;
  std::string failure;  // a fault seen while running (first one wins); makes it collector_failed
  nlohmann::json extra = nlohmann::json::object();  // collector-specific fields (source, ...)

  void fail(std::string why) {
    if (failure.empty()) failure = std::move(why);
  }
  nlohmann::json to_json() const;
};

// Decides the status of a collector that was requested and ran, from what it proved: attached and
// verified by every one of `workers` canaries, a clean end, nothing dropped or malformed. The
// reason of a failure names the first fact that failed (a fault it recorded with fail() first).
void finish(CollectorEntry& entry, std::size_t workers);

CollectorEntry not_requested(std::string name, std::string reason);
CollectorEntry not_available(std::string name, std::string backend, std::string reason,
                             std::string remediation);

}  // namespace jbench::collectors
