#include "jbench/seal/evidence_bundle.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <utility>

namespace jbench {
namespace {

// A failure named relative to the bundle: the seal renames the staging directory the write was
// made in, so a message naming that directory would point at nothing once the bundle is sealed.
std::string relative_to_bundle(std::string message, const std::string& root) {
  const std::string in = " in " + root;
  for (auto at = message.find(in); at != std::string::npos; at = message.find(in, at)) {
    message.erase(at, in.size());
  }
  return message;
}

}  // namespace

std::string not_written_lines(const std::vector<std::string>& failures) {
  constexpr std::size_t kShown = 5;
  std::string lines;
  for (std::size_t i = 0; i < failures.size() && i < kShown; ++i) {
    lines += fmt::format("not written: {}\n", failures[i]);
  }
  if (failures.size() > kShown) lines += fmt::format("... and {} more\n", failures.size() - kShown);
  return lines;
}

Result<EvidenceBundle> EvidenceBundle::create(const std::string& out_dir, const std::string& name) {
  auto staged = StagingBundle::create(out_dir, name);
  if (!staged) return staged.error();
  return EvidenceBundle(std::move(staged).value());
}

EvidenceBundle::EvidenceBundle(StagingBundle staged) : staged_(std::move(staged)) {}

EvidenceBundle::EvidenceBundle(EvidenceBundle&& other) noexcept
    : staged_(std::move(other.staged_)), failures_(std::move(other.failures_)) {}

void EvidenceBundle::json(std::string_view relative, const nlohmann::json& doc,
                          StagingBundle::Layout layout) {
  keep(staged_.write_json(relative, doc, layout));
}

void EvidenceBundle::text(std::string_view relative, std::string_view bytes) {
  keep(staged_.write_file(relative, bytes));
}

void EvidenceBundle::append_line(std::string_view relative, std::string_view line) {
  keep(staged_.append_line(relative, line));
}

void EvidenceBundle::keep(const Status& written) {
  if (written.ok()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  failures_.push_back(relative_to_bundle(written.error().message, root()));
}

std::vector<std::string> EvidenceBundle::failures() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failures_;
}

Result<Sealed> EvidenceBundle::seal(bool interrupted) {
  Sealed sealed;
  sealed.report = validate_bundle(root(), BundleStage::staged);
  sealed.failures = failures();
  sealed.valid = sealed.report.valid() && sealed.failures.empty();
  nlohmann::json validation = report_to_json(sealed.report);
  validation["bundle"] = name();
  validation["stage"] = "staged: every check but SHA256SUMS, which is written after this file";
  validation["valid"] = sealed.valid;
  validation["write_failures"] = sealed.failures;
  Status recorded = staged_.write_json("validation.json", validation);
  if (!recorded.ok()) {
    // The bundle cannot show that it passed, so it did not: sealed invalid, the failure named.
    keep(recorded);
    sealed.failures.push_back(failures().back());
    sealed.valid = false;
  }
  sealed.outcome = !sealed.valid ? Outcome::invalid
                   : interrupted ? Outcome::interrupted
                                 : Outcome::complete;
  auto final_path = staged_.finalize(sealed.outcome);
  if (!final_path) return final_path.error();
  sealed.path = std::move(final_path).value();
  return sealed;
}

}  // namespace jbench
