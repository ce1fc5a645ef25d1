#include "validate_archive.h"

#include "archive_input.h"

namespace jbench::cli {

ValidationReport validate_archive(const std::string& archive_file) {
  ArchiveInput input(archive_file);
  ValidationReport report;
  if (!input.error().empty()) {
    report.unreadable = true;
    report.findings.push_back(Finding{"bundle.unreadable", "", "", input.error()});
  } else if (!input.findings().empty()) {
    // Refused: nothing was extracted, so there is no bundle to validate.
    for (const auto& f : input.findings())
      report.findings.push_back({f.code, f.entry, "", f.message});
  } else {
    report = validate_bundle(input.bundle_dir());
  }
  report.bundle = archive_file;
  return report;
}

}  // namespace jbench::cli
