#include <fmt/format.h>

#include <string>

#include "jbench/collectors/instructions/instructions_collector.h"
#include "jbench/events/event_file.h"
#include "jbench/events/line_reader.h"

namespace jbench::collectors {
namespace {

std::optional<std::uint64_t> decimal(const std::string& s) {
  char* end = nullptr;
  const std::uint64_t n = std::strtoull(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || s.front() == '-') return std::nullopt;
  return n;
}

}  // namespace

nlohmann::json instructions_summary(const std::string& run_dir, const std::string& raw_file) {
  using Json = nlohmann::json;
  Json incarnations = Json::array();
  std::uint64_t total = 0, allocations = 0;
  bool every_record_has_allocations = true;
  std::string error;
  const auto read = events::for_each_line(
      run_dir + "/" + raw_file, kMaxLineBytes,
      [&](std::size_t number, std::string_view line) {
        const Json r = Json::parse(line, nullptr, false);
        if (!r.is_object() || r.value("kind", "") != "record" ||
            r.value("type", "") != "instructions") {
          return true;
        }
        const std::string count = r.value("instructions", "");
        const auto n = decimal(count);
        if (!n) {
          error = fmt::format("{} line {}: instructions is not a decimal string", raw_file, number);
          return false;
        }
        total += *n;
        Json figures = {{"instructions", count}};
        // Older records lack the allocation count: the figure is then absent, not zero.
        if (r.contains("allocations")) {
          const std::string calls = r.value("allocations", "");
          const auto a = decimal(calls);
          if (!a) {
            error =
                fmt::format("{} line {}: allocations is not a decimal string", raw_file, number);
            return false;
          }
          allocations += *a;
          figures["allocations"] = calls;
        } else {
          every_record_has_allocations = false;
        }
        incarnations.push_back({{"worker", r.value("worker", Json())},
                                {"pid", r.value("pid", Json())},
                                {"start_time_ticks", r.value("start_time_ticks", Json())},
                                {"phases", {{r.value("phase", "measure"), figures}}}});
        return true;
      },
      [](std::size_t) {});
  if (!read.error.empty() && error.empty()) error = read.error;
  if (!error.empty()) return {{"error", error}};
  Json out = {{"source", "callgrind"},
              {"event", "Ir"},
              {"incarnations", incarnations},
              {"measure_instructions", std::to_string(total)}};
  if (every_record_has_allocations) out["measure_allocations"] = std::to_string(allocations);
  return out;
}

}  // namespace jbench::collectors
