#include "alloc_target_run.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>

namespace jbench::alloc_test {

std::uint64_t TargetLine::number(const std::string& key) const {
  const auto it = values.find(key);
  return it == values.end() ? 0 : std::stoull(it->second);
}
std::int64_t TargetLine::pid() const { return static_cast<std::int64_t>(number("pid")); }
std::uint64_t TargetLine::start_time_ticks() const { return number("start_time_ticks"); }
std::uint64_t TargetLine::allocated_bytes() const { return number("allocated_bytes"); }
std::string TargetLine::role() const {
  const auto it = values.find("role");
  return it == values.end() ? "" : it->second;
}

TargetLine TargetRun::line(const std::string& role) const {
  for (const auto& l : lines) {
    if (l.role() == role) return l;
  }
  ADD_FAILURE() << "the target printed no role=" << role << " line; stdout:\n"
                << process.out << "stderr:\n"
                << process.err;
  return {};
}

TargetRun run_target(const std::vector<std::string>& args, bool preload,
                     std::vector<std::pair<std::string, std::string>> env, const std::string& cwd) {
  test::ProcessOptions options;
  options.cwd = cwd;
  options.timeout = std::chrono::seconds(60);
  const auto has = [&](const char* key) {
    return std::any_of(env.begin(), env.end(), [&](const auto& kv) { return kv.first == key; });
  };
  if (!has("JBENCH_RUN_ID")) env.emplace_back("JBENCH_RUN_ID", kRunId);
  if (!has("JBENCH_BOOT_ID")) env.emplace_back("JBENCH_BOOT_ID", kBootId);
  if (preload) env.emplace_back("LD_PRELOAD", ALLOC_PRELOAD_SO);
  options.env = std::move(env);
  std::vector<std::string> argv{ALLOC_TARGET};
  argv.insert(argv.end(), args.begin(), args.end());
  TargetRun run;
  run.process = test::run_process(argv, options);
  std::istringstream out(run.process.out);
  for (std::string text; std::getline(out, text);) {
    TargetLine line;
    std::istringstream words(text);
    for (std::string word; words >> word;) {
      const auto eq = word.find('=');
      if (eq != std::string::npos) line.values[word.substr(0, eq)] = word.substr(eq + 1);
    }
    run.lines.push_back(std::move(line));
  }
  return run;
}

std::vector<nlohmann::json> read_json_lines(const std::string& path) {
  std::vector<nlohmann::json> lines;
  std::ifstream in(path);
  for (std::string text; std::getline(in, text);) {
    lines.push_back(nlohmann::json::parse(text, nullptr, false));
  }
  return lines;
}

EventContext context_of(const std::vector<TargetLine>& members) {
  EventContext context{kRunId, kBootId, {}};
  for (const auto& m : members) context.cohort.insert({m.pid(), m.start_time_ticks()});
  return context;
}

nlohmann::json summary_record(const std::vector<nlohmann::json>& lines) {
  for (const auto& l : lines) {
    if (l.is_object() && l.value("type", "") == "alloc_summary") return l;
  }
  return nullptr;
}

std::string describe(const EventFileReport& report) {
  std::string text;
  for (const auto& p : report.problems) {
    text += p.code + " (line " + std::to_string(p.line) + ": " + p.message + ")\n";
  }
  return text;
}

std::uint64_t decimal(const nlohmann::json& value) {
  return value.is_string() ? std::stoull(value.get<std::string>()) : 0;
}

double estimate_miss_probability(double mean_bytes, double bytes, double largest_allocation,
                                 double rel) {
  const double t = rel * bytes;
  const double variance = mean_bytes * bytes;
  const double bound = std::max(mean_bytes, largest_allocation);
  return 2.0 * std::exp(-(t * t / 2.0) / (variance + bound * t / 3.0));
}

}  // namespace jbench::alloc_test
