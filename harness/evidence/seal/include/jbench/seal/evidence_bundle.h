// The one way a jbench command that leaves evidence (run, oracle, propose, merge) writes its
// bundle and seals it, so that the same fault ends the same way in each of them:
//
//   auto staged = EvidenceBundle::create("out", "nightly-42");
//   if (!staged) return staged.error();         // nothing staged: refused before any work
//   EvidenceBundle& bundle = *staged;
//   bundle.json("manifest.json", manifest);      // a failed write is recorded, never fatal:
//   bundle.text("logs/run.log", text);           // the command goes on writing what it can
//   Result<Sealed> sealed = bundle.seal(interrupted);
//
// seal() runs the validator on what is staged (every check but SHA256SUMS, written after it),
// writes validation.json — valid only when every check passed and every write landed — then
// SHA256SUMS and the atomic rename to <name>, <name>.interrupted or <name>.invalid. A bundle
// whose validation.json could not be written is sealed invalid; its final form says so by lacking
// the file. If SHA256SUMS or the rename fails, seal() returns that error and the staging
// directory stays where it is with everything written (StagingBundle's guarantees).
#pragma once

#include <mutex>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/bundle/staging_bundle.h"
#include "jbench/common/result.h"
#include "jbench/validate/validate.h"

namespace jbench {

struct Sealed {
  std::string path;  // the final directory
  Outcome outcome = Outcome::invalid;
  bool valid = false;       // every check passed and every write landed
  ValidationReport report;  // the staged bundle's checks
  // Every write that did not land, in order, its file named relative to the bundle.
  std::vector<std::string> failures;
};

// "not written: <failure>", a line each for the first five, then how many more: what a command
// prints of a bundle's failed writes.
std::string not_written_lines(const std::vector<std::string>& failures);

class EvidenceBundle {
 public:
  static Result<EvidenceBundle> create(const std::string& out_dir, const std::string& name);
  explicit EvidenceBundle(StagingBundle staged);
  EvidenceBundle(EvidenceBundle&& other) noexcept;
  EvidenceBundle& operator=(EvidenceBundle&&) = delete;

  // Writes; each failure is recorded with its file and errno, and the bundle stays usable.
  void json(std::string_view relative, const nlohmann::json& doc,
            StagingBundle::Layout layout = StagingBundle::Layout::indented);
  void text(std::string_view relative, std::string_view bytes);
  void append_line(std::string_view relative, std::string_view line);
  // The outcome of a write made on staging() directly (a copy, a link, a tree): recorded the same.
  void keep(const Status& written);
  // For what only StagingBundle does (copies, links, retained files); pass their Status to keep().
  StagingBundle& staging() { return staged_; }

  const std::string& root() const { return staged_.root(); }
  const std::string& name() const { return staged_.name(); }
  std::vector<std::string> failures() const;
  bool all_written() const { return failures().empty(); }

  // Validates, records validation.json, writes SHA256SUMS and renames into place. After an
  // error it may be tried again; after success the bundle takes no more writes.
  Result<Sealed> seal(bool interrupted);

 private:
  StagingBundle staged_;
  mutable std::mutex mutex_;  // writes may come from several threads (StagingBundle allows it)
  std::vector<std::string> failures_;
};

}  // namespace jbench
