#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string_view>

#include "jbench/alloc/alloc_summary.h"
#include "jbench/alloc/sample_weight.h"
#include "jbench/events/flat_record.h"
#include "jbench/events/line_reader.h"

namespace jbench::alloc {
namespace {

using Json = nlohmann::json;

// A 64-bit value written as a decimal string (docs/events.md).
std::optional<std::uint64_t> decimal(const Json& object, const char* key) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_string()) return {};
  const std::string& s = object[key].get_ref<const std::string&>();
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return {};
  return v;
}

struct Summary {
  std::uint64_t samples = 0;
  std::uint64_t recorded = 0;
  std::uint64_t dropped = 0;
  std::uint64_t estimated_bytes = 0;
  std::uint64_t dropped_estimated_bytes = 0;
};

class FileReader {
 public:
  FileReader(std::string path, const std::vector<PhaseWindow>& phases, AllocReport& report)
      : path_(std::move(path)), windows_(phases), report_(report) {}

  // Overlong lines are skipped (the checker refuses them), and a file that cannot be read whole
  // was reported by the checker (events.unreadable): only the lines read are taken.
  void read() {
    events::for_each_line(
        path_, kMaxLineBytes,
        [&](std::size_t number, std::string_view line) { return take(number, line); },
        [](std::size_t) {});
    if (!who_) return;
    report_.incarnations.push_back(std::move(*who_));
  }

 private:
  // Records, nearly every line, are read flat (jbench/events/flat_record.h); the header and the
  // trailer, which nest, as documents.
  bool take(std::size_t number, std::string_view line) {
    if (number > 1 && who_ && flat_.parse(line) && flat_.string("kind") == "record") {
      record(number);
      return true;
    }
    Json j = Json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return true;
    const std::string kind = j.value("kind", "");
    if (number == 1 && kind == "header") return header(j);
    if (kind == "record" && who_) {
      problem("alloc.bad_record", number,
              "a record that is not a flat object of strings and integers (docs/events.md)");
    } else if (kind == "trailer" && who_) {
      trailer(number, j);
    }
    return true;
  }

  void problem(const char* code, std::size_t line, std::string message) {
    report_.problems.push_back({path_, code, line, std::move(message)});
  }

  bool header(const Json& h) {
    if (h.value("collector", "") != "alloc") {
      problem(
          "alloc.not_alloc", 1,
          fmt::format("the file's collector is \"{}\", not \"alloc\"", h.value("collector", "")));
      return false;
    }
    const auto mean = decimal(h.value("sampling", Json()), "mean_bytes");
    const auto ticks = decimal(h, "start_time_ticks");
    if (!mean || *mean == 0 || !h.contains("pid") || !h["pid"].is_number_integer() || !ticks) {
      problem("alloc.bad_header", 1,
              "the header needs pid, start_time_ticks and sampling.mean_bytes (> 0)");
      return false;
    }
    IncarnationAlloc who;
    who.file = path_;
    who.pid = h["pid"].get<std::int64_t>();
    who.start_time_ticks = *ticks;
    who.ppid = h.value("ppid", std::int64_t{0});
    who.origin = h.value("origin", "");
    who.mean_bytes = *mean;
    who.seed = decimal(h["sampling"], "seed").value_or(0);
    for (const auto& w : windows_) who.phases.push_back({w.name, {}});
    who.phases.push_back({kOutsidePhases, {}});
    who_ = std::move(who);
    return true;
  }

  PhaseTotals& phase_of(std::uint64_t t_ns) {
    for (std::size_t i = 0; i < windows_.size(); ++i) {
      if (t_ns >= windows_[i].start_ns && t_ns < windows_[i].end_ns) return who_->phases[i].second;
    }
    return who_->phases.back().second;
  }

  void record(std::size_t n) {
    const events::FlatRecord& r = flat_;
    const std::string_view type = r.string("type").value_or("");
    if (type != "alloc_sample" && type != "overflow" && type != "alloc_summary") return;
    const auto t = r.decimal("t_ns");
    const auto ticks = r.decimal("start_time_ticks");
    if (!t || !ticks) return;  // the checker reports the record as malformed
    const std::int64_t pid = r.integer("pid").value_or(0);
    if (pid != who_->pid || *ticks != who_->start_time_ticks) {
      problem("alloc.foreign_record", n,
              fmt::format("a record of pid {} in the file of pid {}: a file holds one incarnation",
                          pid, who_->pid));
      return;
    }
    if (type == "alloc_sample") {
      const auto bytes = r.decimal("bytes");
      if (!bytes || *bytes == 0) {
        problem("alloc.bad_record", n, "an alloc_sample needs bytes > 0 as a decimal string");
        return;
      }
      const double w = sample_weight(*bytes, who_->mean_bytes);
      PhaseTotals& phase = phase_of(*t);
      ++phase.samples;
      phase.estimated_bytes += w;
      ++who_->recorded;
      who_->estimated_bytes += w;
    } else if (type == "overflow") {
      who_->first_drop_ns = r.decimal("first_drop_ns");
    } else {
      summary_line_ = n;
      summary_ = Summary{r.decimal("samples").value_or(0), r.decimal("recorded").value_or(0),
                         r.decimal("dropped").value_or(0), r.decimal("estimated_bytes").value_or(0),
                         r.decimal("dropped_estimated_bytes").value_or(0)};
    }
  }

  void trailer(std::size_t n, const Json& t) {
    const Json ended = t.value("ended", Json());
    if (ended.is_object() && ended.value("code", 0) != 0 && t.contains("reason")) {
      problem("alloc.collector_failed", n,
              fmt::format("the sampler did not run: {}", t.value("reason", "")));
      return;
    }
    if (!summary_) {
      problem("alloc.no_summary", n, "the file ends without an alloc_summary record");
      return;
    }
    check_summary();
  }

  // The summary must be recomputable from the records (docs/design.md, "Events").
  void check_summary() {
    const Summary& s = *summary_;
    const double recomputed = who_->estimated_bytes;
    const double tolerance = 1.0 + 1e-9 * recomputed;
    if (s.recorded != who_->recorded || s.samples != s.recorded + s.dropped ||
        std::fabs(static_cast<double>(s.estimated_bytes) - recomputed) > tolerance) {
      problem("alloc.summary_mismatch", summary_line_,
              fmt::format("the summary says {} recorded, {} samples, {} estimated bytes; the "
                          "records give {} recorded and {:.0f} bytes",
                          s.recorded, s.samples, s.estimated_bytes, who_->recorded, recomputed));
    }
    who_->samples = s.samples;
    who_->dropped = s.dropped;
    who_->dropped_estimated_bytes = s.dropped_estimated_bytes;
    if (s.dropped == 0) return;
    const std::uint64_t first = who_->first_drop_ns.value_or(0);
    for (std::size_t i = 0; i < windows_.size(); ++i) {
      if (windows_[i].end_ns > first) who_->phases[i].second.lossy = true;
    }
    who_->phases.back().second.lossy = true;
  }

  std::string path_;
  const std::vector<PhaseWindow>& windows_;
  AllocReport& report_;
  std::optional<IncarnationAlloc> who_;
  events::FlatRecord flat_;
  std::optional<Summary> summary_;
  std::size_t summary_line_ = 0;
};

}  // namespace

AllocReport read_alloc_file(const std::string& path, const EventContext& context,
                            const std::vector<PhaseWindow>& phases) {
  AllocReport report;
  const EventFileReport checked = check_event_file(path, context);
  for (const auto& p : checked.problems)
    report.problems.push_back({path, p.code, p.line, p.message});
  FileReader(path, phases, report).read();
  return report;
}

AllocReport read_alloc_files(const std::vector<std::string>& paths, const EventContext& context,
                             const std::vector<PhaseWindow>& phases) {
  AllocReport all;
  for (const auto& path : paths) {
    AllocReport one = read_alloc_file(path, context, phases);
    for (auto& i : one.incarnations) all.incarnations.push_back(std::move(i));
    for (auto& p : one.problems) all.problems.push_back(std::move(p));
  }
  return all;
}

}  // namespace jbench::alloc
