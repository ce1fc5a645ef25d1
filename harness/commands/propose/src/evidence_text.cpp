#include "evidence_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>

namespace jbench::propose {
namespace {

using Json = nlohmann::json;

std::string text(const Json& j, const char* key, const char* fallback = "-") {
  if (!j.is_object() || !j.contains(key) || !j[key].is_string()) return fallback;
  return j[key].get<std::string>();
}

std::string side_line(const Json& side) {
  std::vector<std::string> parts;
  if (side.contains("params") && side["params"].is_object()) {
    for (const auto& [k, v] : side["params"].items()) {
      parts.push_back(fmt::format("{}={}", k, v.is_string() ? v.get<std::string>() : v.dump()));
    }
  }
  if (side.contains("worker_dir") && side["worker_dir"].is_string()) {
    parts.push_back("worker build " + side["worker_dir"].get<std::string>());
  }
  if (side.contains("command") && side["command"].is_array()) {
    std::vector<std::string> words;
    for (const auto& w : side["command"])
      words.push_back(w.is_string() ? w.get<std::string>() : "?");
    parts.push_back(fmt::format("worker command {}", fmt::join(words, " ")));
  }
  if (parts.empty()) parts.push_back("the matrix as written");
  return fmt::format("{}", fmt::join(parts, ", "));
}

// An oracle pass names its bundle; a gate command its exit and the log of what it printed.
std::string gate_line(const Json& g) {
  if (!g.is_object() || !g.value("ran", false)) return "not run";
  const std::string where =
      g.contains("log") ? fmt::format("gate command, {}, {}", text(g, "exit"), text(g, "log"))
                        : text(g, "bundle");
  if (g.value("passed", false)) return fmt::format("passed ({})", where);
  return fmt::format("FAILED: {} ({})", text(g, "failure"), where);
}

std::string figure(const Json& j, const char* key) {
  if (!j.contains(key) || !j[key].is_number()) return "-";
  return fmt::format("{:.3f}", j[key].get<double>());
}

// What was proposed: the sides, the rule and its counters, the gates and the sessions run.
std::string declared_text(const Json& record, const Json& rule) {
  std::string out;
  const Json p = record.value("proposal", Json::object());
  out += fmt::format("proposal {} ({}), rule sha256 {}\n", text(p, "name"), text(p, "file"),
                     text(record, "rule_sha256"));
  const Json sides = record.value("sides", Json::object());
  out += fmt::format("  baseline:  {}\n", side_line(sides.value("baseline", Json::object())));
  out += fmt::format("  candidate: {}\n", side_line(sides.value("candidate", Json::object())));
  out += fmt::format(
      "  rule: accept if {} improves by at least {:.1f}% (interval above 1, q <= {}) in every "
      "accepting cell, no guarded metric ({}) worsens beyond {:.1f}%, and every counter moves as "
      "predicted\n",
      text(rule, "primary"), rule.value("improvement_at_least", 0.0) * 100, rule.value("fdr", 0.0),
      fmt::join(rule.value("guard_metrics", std::vector<std::string>{}), ", "),
      rule.value("regression_at_most", 0.0) * 100);
  for (const auto& c : rule.value("counters", Json::array())) {
    out += fmt::format("  counter: {} expected to {}\n", text(c, "metric"), text(c, "expect"));
  }
  const Json oracle = record.value("oracle", Json::object());
  out += fmt::format("oracle gate: candidate {}; baseline {}\n",
                     gate_line(oracle.value("candidate", Json::object())),
                     gate_line(oracle.value("baseline", Json::object())));
  const Json sessions = record.value("sessions", Json::array());
  std::size_t complete = 0;
  for (const auto& s : sessions) complete += s.value("complete", false) ? 1 : 0;
  out += fmt::format(
      "sessions: {} of {} run ({} complete), {} per side, alternating in seeded "
      "pairs (seed {})\n",
      sessions.size(), record.value("order", Json::array()).size(), complete,
      record.value("sessions_per_side", 0), text(record, "seed"));
  return out;
}

// An accepting cell's primary metric with its figures, what its units could have seen, and its
// counters.
std::string accepting_text(const Json& c, const Json& row, const Json& rule) {
  std::string out;
  // A counted metric is compared pair by pair (runs of one seed), others session by session.
  const bool paired = row.value("paired", false);
  const std::string units =
      paired ? fmt::format("{} pairs of runs of one seed", row.value("units_base", 0))
             : fmt::format("{} vs {} sessions", row.value("units_base", 0),
                           row.value("units_candidate", 0));
  // What these units could have seen (80% power): a verdict says what it could not.
  const std::string sees =
      row.contains("detectable_change") && row["detectable_change"].is_number()
          ? fmt::format(", could see {:.2f}%", row["detectable_change"].get<double>() * 100)
          : std::string();
  out += fmt::format("    {}: {} (ratio {} [{}-{}], q {}, {}{})\n", text(rule, "primary"),
                     text(c, "primary"), figure(row, "ratio"), figure(row, "ci_low"),
                     figure(row, "ci_high"), figure(row, "q"), units, sees);
  if (text(c, "primary") == "open" && row.contains("repetitions_needed") &&
      row["repetitions_needed"].is_number()) {
    out += fmt::format("      about {} {} a side would settle a {:.1f}% change\n",
                       row["repetitions_needed"].get<std::size_t>(), paired ? "pairs" : "sessions",
                       rule.value("improvement_at_least", 0.0) * 100);
  }
  const Json counters = c.value("counters", Json::object());
  for (const auto& [metric, status] : counters.items()) {
    out += fmt::format("    counter {}: {}\n", metric,
                       status.is_string() ? status.get<std::string>() : "?");
  }
  return out;
}

// The decision cell by cell, beside the comparison's figures.
std::string cells_text(const Json& decision, const Json& comparison, const Json& rule) {
  std::map<std::pair<std::string, std::string>, Json> rows;  // by cell and metric
  if (comparison.is_object() && comparison.contains("rows")) {
    for (const auto& row : comparison["rows"]) {
      rows[{text(row, "cell"), text(row, "metric")}] = row;
    }
  }
  std::string out;
  for (const auto& c : decision.value("cells", Json::array())) {
    if (!c.value("accepting", false) && c.value("regressions", Json::array()).empty()) continue;
    const std::string cell = text(c, "cell");
    out += fmt::format("  {}{}\n", cell, c.value("accepting", false) ? "" : " (guarded only)");
    if (c.value("accepting", false)) {
      out += accepting_text(c, rows[{cell, text(rule, "primary")}], rule);
    }
    for (const auto& m : c.value("regressions", Json::array())) {
      out += fmt::format("    {} regressed\n", m.is_string() ? m.get<std::string>() : "?");
    }
  }
  return out;
}

}  // namespace

std::string evidence_text(const Json& record, const Json& comparison) {
  const Json rule = record.value("rule", Json::object());
  const Json decision = record.value("decision", Json::object());
  std::string out = declared_text(record, rule) + cells_text(decision, comparison, rule);
  for (const auto& d : record.value("build_differences", Json::array())) {
    out += fmt::format("build difference: {}\n", d.is_string() ? d.get<std::string>() : "?");
  }
  out += fmt::format("verdict: {}{}\n", text(record, "verdict"),
                     decision.value("unexplained", false) ? " (unexplained speed-up)" : "");
  for (const auto& r : decision.value("reasons", Json::array())) {
    out += fmt::format("  - {}\n", r.is_string() ? r.get<std::string>() : "?");
  }
  return out;
}

}  // namespace jbench::propose
