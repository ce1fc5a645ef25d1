#include "jbench/run_summaries/execution.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "jbench/common/run_status.h"

namespace jbench {
namespace {

using Json = nlohmann::json;

std::string text_at(const Json& doc, const char* key) {
  const auto it = doc.find(key);
  return it != doc.end() && it->is_string() ? it->get<std::string>() : std::string();
}

Json value_state(const std::string& axis, const Json& planned, const Json& runs) {
  const std::string value = text_at(planned, "value");
  const std::string plan_state = text_at(planned, "state");
  Json counts = Json::object();
  for (const std::string_view s : kRunStatusWords) counts[std::string(s)] = 0;
  std::string first_reason;
  for (const Json& r : runs) {
    const auto values = r.find("values");
    if (values == r.end() || !values->is_object() || text_at(*values, axis.c_str()) != value) {
      continue;
    }
    const std::string status = text_at(r, "status");
    if (!counts.contains(status)) continue;  // the schema check reports unknown statuses
    counts[status] = counts[status].get<int>() + 1;
    if (status != "ok" && first_reason.empty()) first_reason = text_at(r, "reason");
  }
  const int ok = counts["ok"].get<int>();
  const int ran = ok + counts["failed"].get<int>() + counts["timeout"].get<int>() +
                  counts["interrupted"].get<int>();
  std::string state = plan_state;
  if (plan_state == "measured") {
    state = ok > 0 ? "measured" : ran > 0 ? "attempted_failed" : "not_run";
  }
  Json out = {{"value", value}, {"planned", plan_state}, {"state", state}, {"runs", counts}};
  out["first_reason"] =
      state == "attempted_failed" || state == "not_run" ? Json(first_reason) : Json(nullptr);
  return out;
}

}  // namespace

Json execution_states(const Json& plan_axes, const Json& runs) {
  Json out = Json::array();
  if (!plan_axes.is_array() || !runs.is_array()) return out;
  for (const Json& a : plan_axes) {
    const std::string axis = text_at(a, "axis");
    Json values = Json::array();
    if (const auto v = a.find("values"); v != a.end() && v->is_array()) {
      for (const Json& planned : *v) values.push_back(value_state(axis, planned, runs));
    }
    out.push_back({{"axis", axis}, {"values", std::move(values)}});
  }
  return out;
}

std::vector<std::string> unmeasured_values(const Json& execution) {
  std::vector<std::string> out;
  if (!execution.is_array()) return out;
  for (const Json& a : execution) {
    for (const Json& v : a.value("values", Json::array())) {
      const std::string state = text_at(v, "state");
      if (state != "attempted_failed" && state != "not_run") continue;
      const std::string why = text_at(v, "first_reason");
      out.push_back(fmt::format("{}={} was meant to be measured but is {}{}", text_at(a, "axis"),
                                text_at(v, "value"), state,
                                why.empty() ? std::string() : ": " + why));
    }
  }
  return out;
}

}  // namespace jbench
