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

// Read with the defensive accessors: run.json may be damaged (its schema check reports how).
EventContext context_of(const RunView& r) {
  EventContext ctx;
  ctx.run_id = r.id;
  const Json* cohort = member(*r.run, "cohort");
  if (!cohort) return ctx;
  ctx.boot_id = string_at(*cohort, "boot_id").value_or("");
  const Json* members = member(*cohort, "members");
  if (!members || !members->is_array()) return ctx;
  for (const auto& m : *members) {
    const auto pid = u64_at(m, "pid");
    if (!pid || !member(m, "pid")->is_number()) continue;
    const std::string ticks = string_at(m, "start_time_ticks").value_or("");
    ctx.cohort.insert({static_cast<std::int64_t>(*pid), std::strtoull(ticks.c_str(), nullptr, 10)});
  }
  return ctx;
}

void check_run_events(const std::string& root, const RunView& r, Findings& findings) {
  const Json* mode = r.run ? member(*r.run, "trace_mode") : nullptr;
  const Json* listed = mode ? member(*mode, "collectors") : nullptr;
  if (!listed || !listed->is_array()) return;
  const Json& collectors = *listed;
  const std::string run_file = r.dir + "/run.json";
  for (std::size_t i = 0; i < collectors.size(); ++i) {
    const Json& c = collectors[i];
    if (!member(c, "raw")) continue;
    // One file ("raw": "raw/x.events.jsonl") or one per worker ("raw": [...]); the count
    // the collector recorded is over all of them.
    std::vector<std::pair<std::string, std::string>> files;  // (path, JSON pointer)
    const std::string at = fmt::format("/trace_mode/collectors/{}/raw", i);
    if (c["raw"].is_string()) {
      files.emplace_back(c["raw"].get<std::string>(), at);
    } else if (c["raw"].is_array()) {
      for (std::size_t k = 0; k < c["raw"].size(); ++k) {
        const Json& f = c["raw"][k];
        files.emplace_back(f.is_string() ? f.get<std::string>() : "", fmt::format("{}/{}", at, k));
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
      if (!fs::is_regular_file(root + "/" + file, ec)) {
        findings.add("events.missing_raw", run_file, pointer,
                     fmt::format("the collector's raw file {} is missing", file));
        complete = false;
        continue;
      }
      const auto report = check_event_file(root + "/" + file, context_of(r));
      for (const auto& p : report.problems) {
        findings.add(p.code, file, p.line == 0 ? "" : fmt::format("line {}", p.line), p.message);
      }
      held += report.records;
      complete = complete && report.trailer.has_value();
    }
    const std::uint64_t recorded = u64_at(c, "records").value_or(0);
    if (complete && !files.empty() && recorded != held) {
      findings.add(
          "events.count_mismatch", run_file, fmt::format("/trace_mode/collectors/{}/records", i),
          fmt::format("run.json says {} records, the raw file(s) hold {}", recorded, held));
    }
  }
}

}  // namespace

void check_events(const BundleView& bundle, Findings& findings) {
  for_each_run(bundle, findings, [&bundle](const RunView& r, Findings& found) {
    check_run_events(bundle.root, r, found);
  });
}

}  // namespace jbench::validate
