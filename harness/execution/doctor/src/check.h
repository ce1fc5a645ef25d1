// Internal: one line of the capability document and how it becomes JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "jbench/proc/run_tool.h"

namespace jbench::doctor {

// How a probe's tool run ended (jbench::proc runs it; see jbench/proc/run_tool.h).
using proc::ToolRun;

struct Evidence {
  std::string command;
  std::optional<int> exit_code;  // nullopt: killed, timed out or never started
  std::optional<std::string> version;
  std::string stderr_excerpt;
  bool timed_out = false;
  int signal = 0;
  std::string errno_name;  // "EPERM" when the stderr names one
};

struct Check {
  std::string name;
  bool available = false;
  std::string reason_code;  // from capability_reason_codes(), when !available
  std::string detail;
  std::string remediation;  // when !available
  std::optional<Evidence> evidence;
  nlohmann::json facts = nlohmann::json::object();  // parsed values (a version, a sysctl value)

  static Check ok(std::string name, std::string detail) {
    Check c;
    c.name = std::move(name);
    c.available = true;
    c.detail = std::move(detail);
    return c;
  }
  static Check missing(std::string name, std::string reason, std::string detail,
                       std::string remediation) {
    Check c;
    c.name = std::move(name);
    c.reason_code = std::move(reason);
    c.detail = std::move(detail);
    c.remediation = std::move(remediation);
    return c;
  }
};

// The evidence of a tool run: its command line, exit code, stderr excerpt and errno name.
Evidence evidence_of(const std::vector<std::string>& argv, const ToolRun& run,
                     std::optional<std::string> version);

// A tool's check with what proves it: the command's evidence, the tool's path, and whether the
// tool was seen to work (facts.attach_verified; false when --no-attach left it untried).
Check with_tool_proof(Check check, Evidence evidence, const std::string& path, bool verified);

nlohmann::json to_json(const Check& check);

// The check called `name` (it must exist: the probe builds them all).
const Check& find_check(const std::vector<Check>& checks, const std::string& name);

}  // namespace jbench::doctor
