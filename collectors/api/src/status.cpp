#include "jbench/collectors/api/status.h"

#include <fmt/format.h>

#include <array>

#include "jbench/common/word_index.h"

namespace jbench::collectors {
namespace {

constexpr std::array<std::string_view, 5> kWords = {"ok", "no_events_observed", "not_requested",
                                                    "not_available", "collector_failed"};

}  // namespace

std::string_view status_word(Status status) { return kWords[static_cast<std::size_t>(status)]; }

std::optional<Status> status_from_word(std::string_view word) {
  return word_enum<Status>(kWords, word);
}

void to_json(nlohmann::json& j, Status s) { j = std::string(status_word(s)); }

StatusDecision decide_status(const StatusFacts& f) {
  if (!f.unavailable.empty()) return {Status::not_available, f.unavailable};
  if (!f.failures.empty()) {
    return {Status::collector_failed, fmt::format("{}", fmt::join(f.failures, "; "))};
  }
  if (f.records == 0) return {Status::no_events_observed, f.quiet_reason};
  return {Status::ok, ""};
}

}  // namespace jbench::collectors
