// Whether a finished bundle may be read as evidence, for the readers that do not re-run the
// whole validator (the report, the export): validity is proven, never assumed.
//
//   BundleValidity v = judge_bundle("bundles/nightly-42", /*check_sums=*/true);
//   if (!v.valid) refuse(v.reasons);   // unless the user asked for --allow-invalid
//
// The readers judge once per bundle, while they read it (BundleJudgement):
//
//   BundleJudgement judgement(dir);  // the checksums are read on a thread of their own
//   ... read the bundle ...
//   if (!judgement.get().valid) refuse(judgement.get().reasons);
//
// A bundle is invalid when its directory is named *.invalid (the run that wrote it found it
// invalid), when validation.json is missing, unreadable or says not valid, or (check_sums) when a
// file no longer matches SHA256SUMS: an edited bundle.
#pragma once

#include <future>
#include <string>
#include <vector>

namespace jbench {

struct BundleValidity {
  bool valid = true;
  std::vector<std::string> reasons;  // each one sentence; empty when valid
};

BundleValidity judge_bundle(const std::string& bundle_dir, bool check_sums);

// judge_bundle with every checksum, begun on a thread of its own when made, so that the reading
// of the bundle goes on meanwhile, and awaited where the verdict is needed. Copies share the one
// judgement; the last one waits for it to end.
class BundleJudgement {
 public:
  explicit BundleJudgement(const std::string& bundle_dir);
  const BundleValidity& get() const { return verdict_.get(); }

 private:
  std::shared_future<BundleValidity> verdict_;
};

// Whether the directory holds a manifest.json: a performance bundle, whatever its state.
bool has_manifest(const std::string& bundle_dir);

// A bundle `jbench oracle` wrote: oracle.json at the top and no manifest.json (docs/oracle.md).
// The readers of performance bundles refuse it by name rather than as an unreadable one.
bool is_oracle_bundle(const std::string& bundle_dir);

// A bundle `jbench propose` wrote: proposal.json at the top and no manifest.json
// (docs/proposal.md); its sessions are bundles inside it.
bool is_proposal_bundle(const std::string& bundle_dir);

}  // namespace jbench
