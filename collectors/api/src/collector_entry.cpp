#include "jbench/collectors/api/collector_entry.h"

#include <fmt/format.h>

#include <algorithm>

namespace jbench::collectors {

using Json = nlohmann::json;

Json Ended::to_json() const {
  if (how == "signal") return {{"how", "signal"}, {"signal", signal}};
  return {{"how", "exit"}, {"code", code}};
}

Json CollectorEntry::to_json() const {
  Json j = {{"name", name}, {"backend", backend}, {"status", status}, {"reason", reason}};
  if (!setting.empty()) j["setting"] = setting;
  if (!remediation.empty()) j["remediation"] = remediation;
  if (raw.size() == 1) {
    j["raw"] = raw.front();
  } else if (!raw.empty()) {
    j["raw"] = raw;
  }
  const auto ns = [](const std::optional<std::uint64_t>& v) -> Json {
    return v ? Json(std::to_string(*v)) : Json(nullptr);
  };
  j["lifecycle"] = {{"started_ns", ns(started_ns)},
                    {"attached_ns", ns(attached_ns)},
                    {"attach_verified", attach_verified},
                    {"canaries_seen", canaries_seen},
                    {"ended", ended ? ended->to_json() : Json(nullptr)}};
  j["records"] = records;
  j["dropped"] = dropped;
  j["malformed"] = malformed;
  for (const auto& [k, v] : extra.items()) j[k] = v;
  return j;
}

void finish(CollectorEntry& e, std::size_t workers) {
  std::vector<std::size_t> missing;
  for (std::size_t w = 0; w < workers; ++w) {
    if (std::find(e.canaries_seen.begin(), e.canaries_seen.end(), w) == e.canaries_seen.end()) {
      missing.push_back(w);
    }
  }
  // The entry's facts follow from one another (no attachment without a start, ...): the first
  // that failed is the one worth reading, so it alone is the reason.
  std::string why;
  if (!e.failure.empty()) {
    why = e.failure;
  } else if (!e.started_ns) {
    why = "it never started";
  } else if (!e.attach_verified || !missing.empty()) {
    why = missing.empty()
              ? "attachment not verified"
              : fmt::format("attachment not verified: the canary of worker(s) {} was never seen",
                            fmt::join(missing, ", "));
  } else if (!e.ended) {
    why = "it never ended (no record of its exit)";
  } else if (e.ended->how != "exit" || e.ended->code != 0) {
    why = e.ended->how == "signal" ? fmt::format("it was killed by signal {}", e.ended->signal)
                                   : fmt::format("it exited with code {}", e.ended->code);
  } else if (e.dropped > 0) {
    why = fmt::format("{} event(s) were dropped", e.dropped);
  } else if (e.malformed > 0) {
    why = fmt::format("{} record(s) were malformed", e.malformed);
  }
  StatusFacts facts;
  facts.records = e.records;
  if (!why.empty()) facts.failures.push_back(std::move(why));
  if (!e.reason.empty()) facts.quiet_reason = e.reason;
  StatusDecision d = decide_status(facts);
  e.status = d.status;
  if (d.status != Status::ok) e.reason = std::move(d.reason);  // ok keeps what it said
}

CollectorEntry not_requested(std::string name, std::string reason) {
  CollectorEntry e;
  e.name = std::move(name);
  e.backend = "none";
  e.status = kNotRequested;
  e.reason = std::move(reason);
  return e;
}

CollectorEntry not_available(std::string name, std::string backend, std::string reason,
                             std::string remediation) {
  CollectorEntry e;
  e.name = std::move(name);
  e.backend = std::move(backend);
  e.status = kNotAvailable;
  e.reason = std::move(reason);
  e.remediation = std::move(remediation);
  return e;
}

}  // namespace jbench::collectors
