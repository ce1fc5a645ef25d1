// Whether a finished bundle may be read as evidence, for the readers that do not re-run the
// whole validator (the report, the export): validity is proven, never assumed.
//
//   BundleValidity v = judge_bundle("bundles/nightly-42", /*check_sums=*/true);
//   if (!v.valid) refuse(v.reasons);   // unless the user asked for --allow-invalid
//
// A bundle is invalid when its directory is named *.invalid (the run that wrote it found it
// invalid), when validation.json is missing, unreadable or says not valid, or (check_sums) when a
// file no longer matches SHA256SUMS: an edited bundle.
#pragma once

#include <string>
#include <vector>

namespace jbench {

struct BundleValidity {
  bool valid = true;
  std::vector<std::string> reasons;  // each one sentence; empty when valid
};

BundleValidity judge_bundle(const std::string& bundle_dir, bool check_sums);

// Whether the directory holds a manifest.json: a performance bundle, whatever its state.
bool has_manifest(const std::string& bundle_dir);

// A bundle `jbench oracle` wrote: oracle.json at the top and no manifest.json (docs/oracle.md).
// The readers of performance bundles refuse it by name rather than as an unreadable one.
bool is_oracle_bundle(const std::string& bundle_dir);

// A bundle `jbench propose` wrote: proposal.json at the top and no manifest.json
// (docs/proposal.md); its sessions are bundles inside it.
bool is_proposal_bundle(const std::string& bundle_dir);

}  // namespace jbench
