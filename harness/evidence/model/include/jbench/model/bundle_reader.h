// One bundle opened for reading, for every reader of bundles (the report, the attribution, the
// export, compare): judged once, whether it may be read as evidence at all (judge_bundle with
// every checksum, jbench/bundle/bundle_validity.h, begun on a thread of its own as it is opened),
// its manifest read and typed once, its plan and runs on demand.
//
//   const BundleReader bundle("bundles/nightly-42");
//   if (!bundle.manifest()) fail(bundle.manifest().error().message);  // "<path> /runs/3/..."
//   for (const ManifestRun& entry : bundle.manifest()->runs) {
//     if (entry.status == RunStatus::not_run) continue;
//     auto run = bundle.run(entry.id);              // runs/<id>/run.json, typed
//   }
//   if (!bundle.judgement().get().valid) refuse(bundle.judgement().get().reasons);
#pragma once

#include <string>

#include "jbench/bundle/bundle_validity.h"
#include "jbench/common/result.h"
#include "jbench/model/documents.h"
#include "jbench/model/summary.h"

namespace jbench::model {

class BundleReader {
 public:
  // Begins the judgement, then reads <dir>/manifest.json.
  explicit BundleReader(std::string dir);

  const std::string& dir() const { return dir_; }
  // Had whether or not the manifest can be read: an edited bundle is often both invalid and
  // unreadable, and that it is invalid is what its reader must hear first.
  const BundleJudgement& judgement() const { return judgement_; }
  // The manifest, typed; a missing, unparsable or ill-typed one is the error (and then nothing
  // else of the bundle is read).
  const Result<Manifest>& manifest() const { return manifest_; }
  // plan.json, typed; an error when it is missing or ill-typed (a reader may do without it).
  Result<Plan> plan() const;
  // <dir>/runs/<id>
  std::string run_dir(const std::string& id) const;
  // runs/<id>/run.json, typed.
  Result<RunDocument> run(const std::string& id) const;
  // runs/<id>/summary.json, typed (a run that did not end ok may have none).
  Result<Summary> summary(const std::string& id) const;

 private:
  std::string dir_;
  BundleJudgement judgement_;
  Result<Manifest> manifest_;
};

}  // namespace jbench::model
