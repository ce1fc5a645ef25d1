// The raw event files of each run's collectors (docs/events.md): each is read once and checked
// against the run it claims to belong to — its header, its records' streams and attribution,
// its spans, its trailer — and against the count the collector recorded in run.json.
#include <fmt/format.h>

#include <filesystem>

#include "checks.h"
#include "jbench/events/event_file.h"

namespace jbench::validate {
namespace {

namespace fs = std::filesystem;

EventContext context_of(const RunView& r) {
  EventContext ctx;
  ctx.run_id = r.id;
  const Json& run = *r.run;
  if (run.contains("cohort") && run["cohort"].is_object()) {
    ctx.boot_id = run["cohort"].value("boot_id", "");
    for (const auto& m : run["cohort"].value("members", Json::array())) {
      if (!m.contains("pid") || !m["pid"].is_number_integer()) continue;
      const std::string ticks = m.value("start_time_ticks", "");
      ctx.cohort.emplace(m["pid"].get<std::int64_t>(), std::strtoull(ticks.c_str(), nullptr, 10));
    }
  }
  return ctx;
}

}  // namespace

void check_events(const BundleView& bundle, Findings& findings) {
  for (const auto& r : bundle.runs) {
    if (!r.run || !r.run->contains("trace_mode")) continue;
    const Json& collectors = (*r.run)["trace_mode"].value("collectors", Json::array());
    if (!collectors.is_array()) continue;
    const std::string run_file = r.dir + "/run.json";
    for (std::size_t i = 0; i < collectors.size(); ++i) {
      const Json& c = collectors[i];
      if (!c.contains("raw")) continue;
      // One file ("raw": "raw/x.events.jsonl") or one per worker ("raw": [...]); the count
      // the collector recorded is over all of them.
      std::vector<std::pair<std::string, std::string>> files;  // (path, JSON pointer)
      const std::string at = fmt::format("/trace_mode/collectors/{}/raw", i);
      if (c["raw"].is_string()) {
        files.emplace_back(c["raw"].get<std::string>(), at);
      } else if (c["raw"].is_array()) {
        for (std::size_t k = 0; k < c["raw"].size(); ++k) {
          const Json& f = c["raw"][k];
          files.emplace_back(f.is_string() ? f.get<std::string>() : "",
                             fmt::format("{}/{}", at, k));
        }
      }
      std::uint64_t held = 0;
      bool complete = true;
      for (const auto& [raw, pointer] : files) {
        if (!safe_relative(raw)) {
          findings.add("events.bad_path", run_file, pointer,
                       fmt::format("'{}' is not a path inside the run's directory", raw));
          complete = false;
          continue;
        }
        const std::string file = r.dir + "/" + raw;
        std::error_code ec;
        if (!fs::is_regular_file(bundle.root + "/" + file, ec)) {
          findings.add("events.missing_raw", run_file, pointer,
                       fmt::format("the collector's raw file {} is missing", file));
          complete = false;
          continue;
        }
        const auto report = check_event_file(bundle.root + "/" + file, context_of(r));
        for (const auto& p : report.problems) {
          findings.add(p.code, file, p.line == 0 ? "" : fmt::format("line {}", p.line), p.message);
        }
        held += report.records;
        complete = complete && report.trailer.has_value();
      }
      const std::uint64_t recorded = c.value("records", std::uint64_t{0});
      if (complete && !files.empty() && recorded != held) {
        findings.add(
            "events.count_mismatch", run_file, fmt::format("/trace_mode/collectors/{}/records", i),
            fmt::format("run.json says {} records, the raw file(s) hold {}", recorded, held));
      }
    }
  }
}

}  // namespace jbench::validate
