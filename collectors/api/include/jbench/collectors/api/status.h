// The five status words of a collector (docs/design.md, "Status words") and the one rule that
// decides which of them a collector that was requested ends with. Pure.
//
//   not_available       the host cannot run it: the reason (and a remediation) say why
//   collector_failed    a fact it had to prove failed: the reason lists every one, in order
//   no_events_observed  everything proven, and nothing happened
//   ok                  everything proven, and records were written
//   not_requested       the trace mode does not ask for it (never decided here: the table says)
//
//   StatusFacts f;  f.failures.push_back("attachment not verified");  f.records = 12;
//   StatusDecision d = decide_status(f);   // collector_failed, "attachment not verified"
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace jbench::collectors {

enum class Status { ok, no_events_observed, not_requested, not_available, collector_failed };

// The word run.json carries ("ok", "no_events_observed", ...), and back.
std::string_view status_word(Status status);
std::optional<Status> status_from_word(std::string_view word);
// Whether a run that requires the collector may count its evidence: ok or no_events_observed.
inline bool proven(Status s) { return s == Status::ok || s == Status::no_events_observed; }
// Whether it ran at all (neither not_requested nor not_available).
inline bool ran(Status s) { return s != Status::not_requested && s != Status::not_available; }

inline std::ostream& operator<<(std::ostream& out, Status s) { return out << status_word(s); }
void to_json(nlohmann::json& j, Status s);  // the word

inline constexpr Status kOk = Status::ok;
inline constexpr Status kNoEventsObserved = Status::no_events_observed;
inline constexpr Status kNotRequested = Status::not_requested;
inline constexpr Status kNotAvailable = Status::not_available;
inline constexpr Status kCollectorFailed = Status::collector_failed;

struct StatusFacts {
  std::string unavailable;            // non-empty: not_available, and this is the reason
  std::vector<std::string> failures;  // each failed fact in the collector's words, in order
  std::uint64_t records = 0;
  // The reason of no_events_observed when the collector has nothing more precise to say.
  std::string quiet_reason = "attached and verified; nothing happened";
};

struct StatusDecision {
  Status status = Status::collector_failed;
  std::string reason;  // empty for ok
};

// not_available wins; then any failed fact (all of them, joined by "; "); then no records.
StatusDecision decide_status(const StatusFacts& facts);

}  // namespace jbench::collectors
