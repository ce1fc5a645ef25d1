#include "collector_fixture.h"

#include <string>

#include "jbench/events/compressed_file.h"

namespace jbench::test {

using Json = nlohmann::json;

void add_spans_collector(const BundleEditor& e, const std::string& run,
                         const CollectorTweak& tweak) {
  const std::string run_json = "runs/" + run + "/run.json";
  Json doc = e.json(run_json);
  const Json& worker = doc["cohort"]["members"][0];
  const std::uint64_t t0 = std::stoull(doc["boundaries"]["measure_start_ns"].get<std::string>());
  std::uint64_t seq = 0;
  const auto record = [&](const char* type, Json fields) {
    Json r = {{"kind", "record"},
              {"type", type},
              {"seq", std::to_string(seq)},
              {"pid", worker["pid"]},
              {"start_time_ticks", worker["start_time_ticks"]},
              {"tid", worker["pid"]},
              {"t_ns", std::to_string(t0 + 1000 * seq)}};
    ++seq;
    r.update(fields);
    return r;
  };
  std::vector<Json> lines = {
      {{"kind", "header"},
       {"schema", "jbench.events"},
       {"schema_version", 1},
       {"collector", "spans"},
       {"backend", "bridge"},
       {"backend_version", "1"},
       {"clock", "CLOCK_MONOTONIC"},
       {"units", {{"t_ns", "ns"}}},
       {"run_id", run},
       {"boot_id", doc["cohort"]["boot_id"]}},
      record("canary", Json::object()),
      record("span_begin", {{"span_id", "a1"}, {"parent_id", nullptr}, {"name", "transaction"}}),
      record("span_begin", {{"span_id", "b2"}, {"parent_id", "a1"}, {"name", "statement"}}),
      record("span_end", {{"span_id", "b2"}}),
      record("span_end", {{"span_id", "a1"}}),
      {{"kind", "trailer"},
       {"records", 5},
       {"dropped", 0},
       {"malformed", 0},
       {"ended", {{"how", "exit"}, {"code", 0}}}}};
  Json workers = Json::array();
  for (std::size_t w = 0; w < doc["workers"].size(); ++w) workers.push_back(w);
  Json collector = {{"name", "spans"},
                    {"backend", "bridge"},
                    {"status", "ok"},
                    {"reason", ""},
                    {"raw", "raw/spans.events.jsonl"},
                    {"lifecycle",
                     {{"started_ns", doc["boundaries"]["startup_start_ns"]},
                      {"attached_ns", doc["boundaries"]["startup_start_ns"]},
                      {"attach_verified", true},
                      {"canaries_seen", workers},
                      {"ended", {{"how", "exit"}, {"code", 0}}}}},
                    {"records", 5},
                    {"dropped", 0},
                    {"malformed", 0}};
  if (tweak.raw) tweak.raw(lines);
  if (tweak.entry) tweak.entry(collector);
  std::string text;
  for (const auto& l : lines) text += l.dump() + "\n";
  e.write_text("runs/" + run + "/raw/spans.events.jsonl", text);
  // Takes the place of the run's own "spans" entry (not_requested in a baseline run).
  Json& list = doc["trace_mode"]["collectors"];
  bool replaced = false;
  for (auto& c : list) {
    if (c.value("name", "") == "spans") {
      c = collector;
      replaced = true;
    }
  }
  if (!replaced) list.push_back(collector);
  e.write_json(run_json, doc);
  e.rewrite_sums();
}

std::string keep_spans_compressed(const BundleEditor& e, const std::string& run) {
  const std::string dir = "runs/" + run;
  const std::string kept = events::keep_compressed(e.path(dir), "raw/spans.events.jsonl");
  Json doc = e.json(dir + "/run.json");
  for (auto& c : doc["trace_mode"]["collectors"]) {
    if (c.value("name", "") == "spans") c["raw"] = kept;
  }
  e.write_json(dir + "/run.json", doc);
  e.rewrite_sums();
  return dir + "/" + kept;
}

}  // namespace jbench::test
