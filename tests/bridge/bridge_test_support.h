// What the bridge's tests share: the environment that starts a target in a mode, and readers of
// the raw file and of the key=value lines the target programs print.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "jbench/events/event_file.h"

namespace jbench::test {

inline constexpr const char* kRunId = "bridge.test.r1";
inline constexpr const char* kBootId = "00000000-0000-4000-8000-000000000001";

// JBENCH_BRIDGE_* for `mode` writing to `out` (and a ring of `buffer` slots unless empty).
std::vector<std::pair<std::string, std::string>> bridge_env(const std::string& mode,
                                                            const std::string& out,
                                                            const std::string& buffer = "");

// Every line of a JSON Lines file, parsed.
std::vector<nlohmann::json> read_lines(const std::string& path);

// "key=value" tokens of a program's output (later keys win).
std::map<std::string, std::string> parse_output(const std::string& out);

// The cohort is every incarnation that wrote records; tests check it is the one they expect.
EventContext context_of(const std::vector<nlohmann::json>& lines);

// The first span_begin record called `name`, or nullptr.
const nlohmann::json* span_named(const std::vector<nlohmann::json>& lines, const std::string& name);

// The problems of a report, one per line, for failure messages.
std::string codes(const EventFileReport& report);

}  // namespace jbench::test
