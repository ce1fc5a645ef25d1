// validate_bundle: opens the bundle, loads its documents once, and runs every check in order.
#include "jbench/validate/validate.h"

#include <dirent.h>
#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <exception>

#include "checks.h"
#include "jbench/bundle/bundle_validity.h"

namespace jbench {

ValidationReport validate_bundle(const std::string& dir, BundleStage stage) {
  ValidationReport report;
  report.bundle = dir;
  validate::Findings findings(report.findings);
  // Unreadable is not the same as invalid: nothing could be checked, so no verdict is given.
  if (DIR* d = opendir(dir.c_str())) {
    closedir(d);
  } else {
    report.unreadable = true;
    findings.add("bundle.unreadable", "", "",
                 fmt::format("cannot open {} as a directory: {}", dir, std::strerror(errno)));
    return report;
  }
  // The checks read untrusted JSON defensively; should one still meet a shape it did not
  // expect, the bundle is not declared valid on that account.
  try {
    const bool staged = stage == BundleStage::staged;
    // A bundle of `jbench oracle` (its record) or of `jbench propose` (its record and every
    // bundle it holds): no manifest, so only its marks and sums are checked before the record.
    if (is_oracle_bundle(dir) || is_proposal_bundle(dir)) {
      validate::BundleView bundle;
      bundle.root = dir;
      if (!staged) {
        bundle.validation = validate::load_plain_json(dir, "validation.json", findings);
        validate::check_bundle_marks(bundle, findings);
        validate::check_sums(bundle, findings);
      }
      if (is_oracle_bundle(dir)) {
        validate::check_oracle_record(dir, "", findings);
      } else {
        validate::check_proposal(dir, findings);
      }
      return report;
    }
    const validate::BundleView bundle = validate::load_bundle(dir, staged, findings);
    if (!staged) {
      validate::check_bundle_marks(bundle, findings);
      validate::check_sums(bundle, findings);
    }
    validate::check_session(bundle, findings);
    validate::check_execution(bundle, findings);
    validate::check_twins(bundle, findings);
    validate::check_runs(bundle, findings);
    validate::check_events(bundle, findings);
    validate::check_counted(bundle, findings);
    validate::check_transcripts(bundle, findings);
    validate::check_summaries(bundle, findings);
    validate::check_provenance(bundle, findings);
    validate::check_merge(bundle, findings);
    validate::check_oracle_requirement(bundle, report.unproven, findings);
  } catch (const std::exception& e) {
    findings.add("validate.check_aborted", "", "",
                 fmt::format("a check stopped on unexpected content: {}", e.what()));
  }
  return report;
}

}  // namespace jbench
