#include "jbench/validate/invalid_because.h"

#include <fmt/format.h>

#include <algorithm>

#include "jbench/validate/validate.h"

namespace jbench {

InvalidBecause invalid_because(const std::string& bundle_dir, const BundleValidity& judged) {
  ValidationReport report = validate_bundle(bundle_dir);
  std::stable_partition(report.findings.begin(), report.findings.end(), [](const Finding& f) {
    return f.code != "bundle.marked_invalid" && f.code != "bundle.recorded_invalid";
  });
  InvalidBecause out;
  out.unreadable = report.unreadable;
  for (const Finding& f : report.findings) {
    out.reasons.push_back(
        fmt::format("{} {}: {}", f.code, f.file.empty() ? "(bundle)" : f.file, f.message));
  }
  if (out.reasons.empty()) out.reasons = judged.reasons;
  return out;
}

}  // namespace jbench
