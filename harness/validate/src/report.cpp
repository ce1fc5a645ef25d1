// The two forms of a validation report: JSON for programs, text for people.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "jbench/validate/validate.h"

namespace jbench {

nlohmann::json report_to_json(const ValidationReport& report) {
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& f : report.findings) {
    findings.push_back(
        {{"code", f.code}, {"file", f.file}, {"pointer", f.pointer}, {"message", f.message}});
  }
  return {{"schema", "jbench.validate_report"},
          {"schema_version", 1},
          {"bundle", report.bundle},
          {"valid", report.valid()},
          {"unreadable", report.unreadable},
          {"finding_count", report.findings.size()},
          {"findings", findings}};
}

std::string report_to_text(const ValidationReport& report) {
  std::string out;
  for (const auto& f : report.findings) {
    std::string where = f.file.empty() ? std::string("(bundle)") : f.file;
    if (!f.pointer.empty()) where += "#" + f.pointer;
    out += fmt::format("{}  {}: {}\n", f.code, where, f.message);
  }
  if (report.unreadable) {
    out += fmt::format("unreadable: {} could not be checked\n", report.bundle);
  } else if (report.valid()) {
    out += fmt::format("valid: {}\n", report.bundle);
  } else {
    out += fmt::format("INVALID: {}: {} finding{}\n", report.bundle, report.findings.size(),
                       report.findings.size() == 1 ? "" : "s");
  }
  return out;
}

}  // namespace jbench
