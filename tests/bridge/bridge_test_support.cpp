#include "bridge_test_support.h"

#include <fstream>

namespace jbench::test {

using nlohmann::json;

std::vector<std::pair<std::string, std::string>> bridge_env(const std::string& mode,
                                                            const std::string& out,
                                                            const std::string& buffer) {
  std::vector<std::pair<std::string, std::string>> env = {{"JBENCH_BRIDGE_MODE", mode},
                                                          {"JBENCH_BRIDGE_OUT", out},
                                                          {"JBENCH_RUN_ID", kRunId},
                                                          {"JBENCH_BOOT_ID", kBootId}};
  if (!buffer.empty()) env.emplace_back("JBENCH_BRIDGE_BUFFER", buffer);
  return env;
}

std::vector<json> read_lines(const std::string& path) {
  std::vector<json> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) out.push_back(json::parse(line));
  return out;
}

std::map<std::string, std::string> parse_output(const std::string& out) {
  std::map<std::string, std::string> kv;
  std::string token;
  for (char c : out + "\n") {
    if (c == ' ' || c == '\n') {
      const auto eq = token.find('=');
      if (eq != std::string::npos) kv[token.substr(0, eq)] = token.substr(eq + 1);
      token.clear();
    } else {
      token += c;
    }
  }
  return kv;
}

EventContext context_of(const std::vector<json>& lines) {
  EventContext ctx{kRunId, kBootId, {}};
  for (const json& l : lines) {
    if (l.value("kind", "") != "record") continue;
    ctx.cohort.insert(
        {l["pid"].get<std::int64_t>(), std::stoull(l["start_time_ticks"].get<std::string>())});
  }
  return ctx;
}

const json* span_named(const std::vector<json>& lines, const std::string& name) {
  for (const json& l : lines) {
    if (l.value("type", "") == "span_begin" && l.value("name", "") == name) return &l;
  }
  return nullptr;
}

std::string codes(const EventFileReport& report) {
  std::string s;
  for (const auto& p : report.problems) {
    s += p.code + " (line " + std::to_string(p.line) + ": " + p.message + ")\n";
  }
  return s;
}

}  // namespace jbench::test
