#include "jbench/merge/merge_shards.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include "jbench/bundle/bundle_validity.h"
#include "jbench/bundle/json_file.h"
#include "jbench/bundle/sha256sums.h"
#include "jbench/common/clock.h"
#include "jbench/common/sha256.h"
#include "jbench/matrix/load.h"
#include "jbench/merge/merged_documents.h"
#include "jbench/plan/plan_output.h"
#include "jbench/provenance/build_info.h"
#include "jbench/seal/evidence_bundle.h"
#include "jbench/validate/invalid_because.h"
#include "jbench/validate/validate.h"

namespace jbench::merge {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// How many of a shard's own findings a refusal quotes; the rest are counted.
constexpr std::size_t kQuotedFindings = 3;

// A shard's documents, or a finding saying why it cannot be one: a merge never vouches for
// evidence that was not checked.
std::optional<ShardFacts> read_shard(const std::string& dir, std::vector<MergeFinding>& findings,
                                     std::string& sums_sha256) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    findings.push_back({"merge.unreadable", fmt::format("{} is not a directory", dir)});
    return std::nullopt;
  }
  if (is_oracle_bundle(dir) || is_proposal_bundle(dir)) {
    findings.push_back(
        {"merge.not_a_run_bundle", fmt::format("{} is a bundle of `jbench {}`, not a session's",
                                               dir, is_oracle_bundle(dir) ? "oracle" : "propose")});
    return std::nullopt;
  }
  // The shard's own verdict, which its validator wrote before its SHA256SUMS, and its sums as
  // they are now: proof that it is the evidence that was validated when it was written, as
  // `jbench compare` reads bundles. Only a shard that fails them is validated in full, to say
  // why. Whatever a forged verdict hides, the merged bundle's own full validation still meets.
  const BundleValidity judged = judge_bundle(dir, /*check_sums=*/true);
  if (!judged.valid) {
    const InvalidBecause why = invalid_because(dir, judged);
    const std::vector<std::string>& reasons = why.reasons;
    std::string quoted;
    for (std::size_t i = 0; i < reasons.size() && i < kQuotedFindings; ++i) {
      quoted += "; " + reasons[i];
    }
    const std::size_t more =
        reasons.size() > kQuotedFindings ? reasons.size() - kQuotedFindings : 0;
    findings.push_back(
        {why.unreadable ? "merge.unreadable" : "merge.shard_invalid",
         fmt::format("{} does not validate ({} finding(s){}){}", dir, reasons.size(),
                     more ? fmt::format(", {} more: jbench validate {}", more, dir) : "", quoted)});
    return std::nullopt;
  }
  ShardFacts facts;
  facts.source = dir;
  for (auto [file, doc] :
       {std::pair{"manifest.json", &facts.manifest}, std::pair{"plan.json", &facts.plan},
        std::pair{"provenance/index.json", &facts.provenance_index}}) {
    auto read = read_json_object(dir + "/" + file);
    if (!read) {
      findings.push_back({"merge.unreadable", read.error().message});
      return std::nullopt;
    }
    *doc = std::move(*read);
  }
  if (auto problem = read_matrix_text(dir + "/matrix.yaml", facts.matrix_text)) {
    findings.push_back({"merge.unreadable", format_diagnostics({*problem})});
    return std::nullopt;
  }
  auto sums = file_sha256(dir + "/SHA256SUMS");
  if (!sums) {
    findings.push_back({"merge.unreadable", sums.error().message});
    return std::nullopt;
  }
  sums_sha256 = *sums;
  return facts;
}

// The documents of a shard kept beside the runs, so that each copied run can be traced back to
// its shard's own sums, manifest and host.
constexpr const char* kShardDocuments[] = {"manifest.json",         "plan.json",
                                           "capabilities.json",     "matrix.yaml",
                                           "provenance/build.json", "provenance/index.json",
                                           "validation.json",       "SHA256SUMS",
                                           "logs/session.log"};

// The merged bundle's files. Every file is tried: a failed one is recorded in the bundle, which
// is then sealed invalid with everything that could be written, as every command's is.
class Writer {
 public:
  Writer(EvidenceBundle& bundle, const std::vector<ShardFacts>& shards, const MergePlan& plan)
      : b_(bundle), shards_(shards), plan_(plan) {}

  void write(const MergeContext& context) {
    for (std::size_t s = 0; s < shards_.size(); ++s) copy_shard_documents(s);
    StagingBundle& staged = b_.staging();
    for (std::size_t i = 0; i < plan_.run_ids.size(); ++i) {
      const std::string& id = plan_.run_ids[i];
      const std::string from = shards_[plan_.shard_of_run[i]].source + "/runs/" + id;
      std::error_code ec;
      if (!fs::is_directory(from, ec)) continue;  // a run that never started left none
      b_.keep(staged.copy_tree("runs/" + id, from, StagingBundle::TreeCopy::link));
      log(fmt::format("run {} from shard {}", id, plan_.specs[plan_.shard_of_run[i]].index));
    }
    for (const auto& [sha, s] : stored_object_sources(shards_)) {
      const std::string file = "provenance/objects/" + sha;
      b_.keep(staged.link_file(file, shards_[s].source + "/" + file));
    }
    const ShardFacts& ref = shards_.front();
    for (const char* file : {"matrix.yaml", "capabilities.json", "provenance/build.json"}) {
      b_.keep(staged.copy_file(file, ref.source + "/" + file));
    }
    std::error_code ec;
    if (fs::is_directory(ref.source + "/oracle", ec)) {
      b_.keep(staged.copy_tree("oracle", ref.source + "/oracle"));
    }
    std::ostringstream plan_json;
    write_plan_json(plan_.whole, plan_json);
    b_.text("plan.json", plan_json.str());
    b_.json("provenance/index.json",
            merged_provenance_index(shards_, plan_, sha256_hex(plan_json.str())));
    b_.json("manifest.json", merged_manifest(shards_, plan_, context));
    b_.text("logs/merge.log", log_);
  }

 private:
  void copy_shard_documents(std::size_t s) {
    const ShardFacts& shard = shards_[s];
    const std::string dir = fmt::format("shards/{}", plan_.specs[s].index);
    for (const char* file : kShardDocuments) {
      std::error_code ec;
      if (!fs::is_regular_file(shard.source + "/" + file, ec)) continue;
      b_.keep(b_.staging().copy_file(dir + "/" + file, shard.source + "/" + file));
    }
    std::error_code ec;
    if (fs::is_directory(shard.source + "/oracle", ec)) {
      b_.keep(b_.staging().copy_tree(dir + "/oracle", shard.source + "/oracle"));
    }
    log(fmt::format("shard {}/{}: {} ({})", plan_.specs[s].index, plan_.specs[s].count,
                    shard.source, shard.manifest.value("bundle", "")));
  }

  void log(const std::string& line) { log_ += utc_now("%FT%TZ") + " " + line + "\n"; }

  EvidenceBundle& b_;
  const std::vector<ShardFacts>& shards_;
  const MergePlan& plan_;
  std::string log_;
};

}  // namespace

MergeOutcome merge_shards(const MergeRequest& request) {
  MergeOutcome out;
  if (request.shards.empty()) {
    out.result = MergeResult::bad_request;
    out.message = "no shard bundle given";
    return out;
  }
  std::vector<ShardFacts> shards;
  std::vector<std::string> sums;
  for (const std::string& dir : request.shards) {
    std::string sha;
    if (auto facts = read_shard(dir, out.findings, sha)) {
      shards.push_back(std::move(*facts));
      sums.push_back(sha);
    }
  }
  if (!out.findings.empty()) {
    out.result = MergeResult::refused;
    return out;
  }
  ShardCheck check;
  try {
    check = check_shards(shards);
  } catch (const std::exception& e) {
    // The shards validated, so this is a shape the check did not foresee: refused, not trusted.
    out.findings.push_back(
        {"merge.unreadable",
         fmt::format("a shard's documents hold an unexpected shape: {}", e.what())});
    out.result = MergeResult::refused;
    return out;
  }
  if (!check.findings.empty()) {
    out.findings = std::move(check.findings);
    out.result = MergeResult::refused;
    return out;
  }
  const MergePlan& plan = *check.plan;

  const fs::path target(request.out);
  const std::string parent = target.has_parent_path() ? target.parent_path().string() : ".";
  auto staged = EvidenceBundle::create(parent, target.filename().string());
  if (!staged) {
    out.result = MergeResult::bad_request;
    out.message = staged.error().message;
    return out;
  }
  EvidenceBundle& b = *staged;
  MergeContext context{b.name(), jbench_identity(), utc_now("%FT%TZ"), sums};
  Writer(b, shards, plan).write(context);
  auto sealed = b.seal(false);
  if (!sealed) {
    out.result = MergeResult::not_written;
    out.message = sealed.error().message;
    return out;
  }
  out.bundle = sealed->path;
  out.runs = plan.run_ids.size();
  std::set<std::string> hosts;
  for (const ShardFacts& s : shards) hosts.insert(s.manifest.value("host", Json()).dump());
  out.hosts = hosts.size();
  if (!sealed->failures.empty()) {
    out.result = MergeResult::not_written;
    out.not_written = sealed->failures;
  } else if (!sealed->valid) {
    out.result = MergeResult::invalid;
    for (const Finding& f : sealed->report.findings) {
      out.findings.push_back({f.code, fmt::format("{}: {}", f.file, f.message)});
    }
  }
  return out;
}

}  // namespace jbench::merge
