// The bundle as a whole: how it is named and marked, and SHA256SUMS against its files.
#include <filesystem>

#include "checks.h"
#include "jbench/bundle/sha256sums.h"

namespace jbench::validate {

void check_bundle_marks(const BundleView& bundle, Findings& findings) {
  // The runner renames a bundle that failed its own checks to <name>.invalid, so that it can
  // never be read as a result; a copy keeps that name, and so this verdict.
  std::filesystem::path p(bundle.root);
  if (!p.has_filename()) p = p.parent_path();  // "dir/" names "dir"
  if (p.filename().string().ends_with(".invalid")) {
    findings.add("bundle.marked_invalid", "", "",
                 "the directory is named '" + p.filename().string() +
                     "': the run that wrote it found it invalid");
  }
  if (bundle.validation) {
    const Json* valid = member(*bundle.validation, "valid");
    if (!valid || !valid->is_boolean() || !valid->get<bool>()) {
      findings.add("bundle.recorded_invalid", "validation.json", "/valid",
                   "the checks run before SHA256SUMS was written did not pass");
    }
    const Json* failures = member(*bundle.validation, "write_failures");
    if (failures && !(failures->is_array() && failures->empty())) {
      findings.add("bundle.recorded_invalid", "validation.json", "/write_failures",
                   "the session recorded files it could not write: " + failures->dump());
    }
  }
  if (bundle.manifest) {
    const auto status = string_at(*bundle.manifest, "status");
    if (status && *status != "complete" && *status != "interrupted") {
      findings.add("bundle.incomplete", "manifest.json", "/status",
                   "the session's status is '" + *status + "', not complete or interrupted");
    }
  }
}

void check_sums(const BundleView& bundle, Findings& findings) {
  for (const auto& p : verify_sha256sums(bundle.root)) {
    findings.add(p.code, p.path, "", p.detail);
  }
}

}  // namespace jbench::validate
