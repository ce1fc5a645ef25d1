// The two forms of a validation report: JSON for programs, text for people.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "jbench/validate/validate.h"

namespace jbench {

namespace {

nlohmann::json findings_json(const std::vector<Finding>& list) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& f : list) {
    out.push_back(
        {{"code", f.code}, {"file", f.file}, {"pointer", f.pointer}, {"message", f.message}});
  }
  return out;
}

std::string finding_line(const Finding& f) {
  std::string where = f.file.empty() ? std::string("(bundle)") : f.file;
  if (!f.pointer.empty()) where += "#" + f.pointer;
  return fmt::format("{}  {}: {}\n", f.code, where, f.message);
}

}  // namespace

nlohmann::json report_to_json(const ValidationReport& report) {
  return {{"schema", "jbench.validate_report"},
          {"schema_version", 1},
          {"bundle", report.bundle},
          {"valid", report.valid()},
          {"unreadable", report.unreadable},
          {"finding_count", report.findings.size()},
          {"findings", findings_json(report.findings)},
          {"proven", report.proven()},
          {"unproven", findings_json(report.unproven)}};
}

std::string report_to_text(const ValidationReport& report) {
  std::string out;
  for (const auto& f : report.findings) out += finding_line(f);
  for (const auto& f : report.unproven) out += finding_line(f);
  if (report.unreadable) {
    out += fmt::format("unreadable: {} could not be checked\n", report.bundle);
  } else if (report.valid() && !report.proven()) {
    out += fmt::format(
        "UNPROVEN: {}: valid, but its correctness evidence is {}\n", report.bundle,
        report.unproven.size() == 1 ? "missing or failing (above)" : "missing or failing (above)");
  } else if (report.valid()) {
    out += fmt::format("valid: {}\n", report.bundle);
  } else {
    out += fmt::format("INVALID: {}: {} finding{}\n", report.bundle, report.findings.size(),
                       report.findings.size() == 1 ? "" : "s");
  }
  return out;
}

}  // namespace jbench
