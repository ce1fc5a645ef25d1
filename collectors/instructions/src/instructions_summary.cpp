#include <fmt/format.h>

#include <string>

#include "jbench/collectors/instructions/instructions_collector.h"
#include "jbench/events/event_file.h"
#include "jbench/events/line_reader.h"

namespace jbench::collectors {

nlohmann::json instructions_summary(const std::string& run_dir, const std::string& raw_file) {
  using Json = nlohmann::json;
  Json incarnations = Json::array();
  std::uint64_t total = 0;
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
        char* end = nullptr;
        const std::uint64_t n = std::strtoull(count.c_str(), &end, 10);
        if (count.empty() || *end != '\0') {
          error = fmt::format("{} line {}: instructions is not a decimal string", raw_file, number);
          return false;
        }
        total += n;
        incarnations.push_back(
            {{"worker", r.value("worker", Json())},
             {"pid", r.value("pid", Json())},
             {"start_time_ticks", r.value("start_time_ticks", Json())},
             {"phases", {{r.value("phase", "measure"), {{"instructions", count}}}}}});
        return true;
      },
      [](std::size_t) {});
  if (!read.error.empty() && error.empty()) error = read.error;
  if (!error.empty()) return {{"error", error}};
  return {{"source", "callgrind"},
          {"event", "Ir"},
          {"incarnations", incarnations},
          {"measure_instructions", std::to_string(total)}};
}

}  // namespace jbench::collectors
