#include "check.h"

#include <stdexcept>

#include "jbench/doctor/parsers.h"

namespace jbench::doctor {

Check with_tool_proof(Check check, Evidence evidence, const std::string& path, bool verified) {
  check.evidence = std::move(evidence);
  check.facts["path"] = path;
  check.facts["attach_verified"] = verified;
  return check;
}

Evidence evidence_of(const std::vector<std::string>& argv, const ToolRun& run,
                     std::optional<std::string> version) {
  Evidence e;
  e.command = display_command(argv);
  if (run.started && !run.signaled) e.exit_code = run.exit_code;
  e.version = std::move(version);
  e.stderr_excerpt = excerpt(run.started ? run.err : run.error);
  e.timed_out = run.timed_out;
  e.signal = run.signaled ? run.signal : 0;
  e.errno_name = errno_name_in(run.started ? run.err : run.error);
  return e;
}

nlohmann::json to_json(const Check& check) {
  nlohmann::json j = {{"name", check.name},
                      {"status", check.available ? "available" : "not_available"}};
  if (!check.available) j["reason_code"] = check.reason_code;
  j["detail"] = check.detail;
  if (!check.available) j["remediation"] = check.remediation;
  if (check.evidence) {
    const Evidence& e = *check.evidence;
    nlohmann::json ev = {{"command", e.command},
                         {"exit_code", e.exit_code ? nlohmann::json(*e.exit_code) : nullptr},
                         {"version", e.version ? nlohmann::json(*e.version) : nullptr},
                         {"stderr_excerpt", e.stderr_excerpt}};
    if (e.timed_out) ev["timed_out"] = true;
    if (e.signal != 0) ev["signal"] = e.signal;
    if (!e.errno_name.empty()) ev["errno"] = e.errno_name;
    j["evidence"] = std::move(ev);
  }
  if (!check.facts.empty()) j["facts"] = check.facts;
  return j;
}

const Check& find_check(const std::vector<Check>& checks, const std::string& name) {
  for (const auto& c : checks) {
    if (c.name == name) return c;
  }
  throw std::logic_error("capability probe: no check named " + name);
}

}  // namespace jbench::doctor
