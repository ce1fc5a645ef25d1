// Strict, fail-closed validation of a result bundle, as `jbench validate` runs it: anyone, later,
// on a copy. Every rule is checked and every finding is listed, not only the first.
//
//   ValidationReport report = validate_bundle("bundles/nightly-42");
//   if (report.unreadable) ...                       // not a bundle we could open: exit 2
//   for (const auto& f : report.findings) std::cout << f.code << " " << f.file << "\n";
//   bool ok = report.valid();                         // no findings at all
//
// Codes are stable (docs/validate.md lists each, what it means and how to fix it): programs and
// tests match codes, never messages.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace jbench {

struct Finding {
  std::string code;     // e.g. "sums.mismatch", "schema.run", "cohort.registered_late"
  std::string file;     // relative to the bundle; "" for the bundle as a whole
  std::string pointer;  // JSON pointer into `file` ("" when the finding is about the whole file)
  std::string message;  // for people: what was found, with the values concerned
};

struct ValidationReport {
  std::string bundle;       // the directory as given
  bool unreadable = false;  // the directory could not be opened: nothing else was checked
  std::vector<Finding> findings;
  // A valid bundle whose matrix asks for correctness evidence (`oracle:`) that is missing or
  // failing: its numbers stand on nothing (code "oracle.unproven"). Apart from findings, since
  // the bundle itself is sound.
  std::vector<Finding> unproven;
  bool valid() const { return !unreadable && findings.empty(); }
  bool proven() const { return unproven.empty(); }
};

// Which bundle is checked: a finished one (anyone, later, on a copy), or the staging directory
// `jbench run` checks before it writes SHA256SUMS — the same rules, less the checksums and
// validation.json that do not exist yet.
enum class BundleStage { final, staged };

// Never throws and never writes into the bundle. Findings come grouped by check, in the order
// the checks run (docs/validate.md), and within a check in file and document order.
ValidationReport validate_bundle(const std::string& dir, BundleStage stage = BundleStage::final);

// The report as JSON: {"schema":"jbench.validate_report","schema_version":1,"bundle","valid",
// "unreadable","finding_count","findings":[{"code","file","pointer","message"}],"proven",
// "unproven":[...]}.
nlohmann::json report_to_json(const ValidationReport& report);

// The report for a terminal: one line per finding ("code  file#pointer: message"), then one
// line with the verdict.
std::string report_to_text(const ValidationReport& report);

}  // namespace jbench
