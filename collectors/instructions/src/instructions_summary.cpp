#include <fmt/format.h>

#include <map>
#include <string>

#include "jbench/collectors/instructions/instructions_collector.h"
#include "jbench/events/event_file.h"
#include "jbench/events/line_reader.h"

namespace jbench::collectors {
namespace {

using Json = nlohmann::json;

std::optional<std::uint64_t> decimal(const std::string& s) {
  char* end = nullptr;
  const std::uint64_t n = std::strtoull(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || s.front() == '-') return std::nullopt;
  return n;
}

// The records of one file, folded per incarnation (a worker's records, one per phase counted)
// with the measure phase's totals.
class SummaryFold {
 public:
  explicit SummaryFold(std::string raw_file) : raw_file_(std::move(raw_file)) {}

  // False (with error()) on a record whose counts are not decimal strings.
  bool add(std::size_t number, const Json& r) {
    if (r.value("kind", "") == "header") source_ = r.value("backend", source_);
    if (r.value("kind", "") != "record" || r.value("type", "") != "instructions") return true;
    event_ = r.value("event", event_);
    const std::string phase = r.value("phase", "measure");
    Json figures = Json::object();
    for (const char* key : {"instructions", "allocations"}) {
      if (!r.contains(key)) continue;
      const std::string count = r.value(key, "");
      const auto n = decimal(count);
      if (!n) {
        error_ = fmt::format("{} line {}: {} is not a decimal string", raw_file_, number, key);
        return false;
      }
      figures[key] = count;
      if (phase == "measure") (std::string(key) == "instructions" ? total_ : allocations_) += *n;
    }
    if (!figures.contains("instructions")) {
      error_ = fmt::format("{} line {}: a record without instructions", raw_file_, number);
      return false;
    }
    // Records made before allocation calls were counted, and the perf backend's, lack them.
    if (phase == "measure" && !figures.contains("allocations")) every_allocation_ = false;
    Json& inc = incarnations_[{r.value("pid", Json()), r.value("start_time_ticks", Json())}];
    if (inc.is_null()) {
      inc = {{"worker", r.value("worker", Json())},
             {"pid", r.value("pid", Json())},
             {"start_time_ticks", r.value("start_time_ticks", Json())},
             {"phases", Json::object()}};
    }
    inc["phases"][phase] = figures;
    return true;
  }

  const std::string& error() const { return error_; }

  Json summary() const {
    Json incarnations = Json::array();
    for (const auto& [key, inc] : incarnations_) incarnations.push_back(inc);
    Json out = {{"source", source_},
                {"event", event_},
                {"incarnations", incarnations},
                {"measure_instructions", std::to_string(total_)}};
    if (every_allocation_) out["measure_allocations"] = std::to_string(allocations_);
    return out;
  }

 private:
  std::string raw_file_;
  std::string source_ = "callgrind", event_ = "Ir", error_;
  std::map<std::pair<Json, Json>, Json> incarnations_;  // by (pid, start_time_ticks)
  std::uint64_t total_ = 0, allocations_ = 0;
  bool every_allocation_ = true;
};

}  // namespace

nlohmann::json instructions_summary(const std::string& run_dir, const std::string& raw_file) {
  SummaryFold fold(raw_file);
  const auto read = events::for_each_line(
      run_dir + "/" + raw_file, kMaxLineBytes,
      [&fold](std::size_t number, std::string_view line) {
        const Json r = Json::parse(line, nullptr, false);
        return !r.is_object() || fold.add(number, r);
      },
      [](std::size_t) {});
  if (!fold.error().empty()) return {{"error", fold.error()}};
  if (!read.error.empty()) return {{"error", read.error}};
  return fold.summary();
}

}  // namespace jbench::collectors
