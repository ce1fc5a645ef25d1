// One bundle opened for reading: its manifest read and typed once, its plan and runs on demand,
// for every reader of bundles (the report, the export, ...). Whether the bundle may be read as
// evidence at all is judge_bundle's (jbench/bundle/bundle_validity.h), which its readers run
// beside the reading.
//
//   auto bundle = BundleReader::open("bundles/nightly-42");
//   if (!bundle) fail(bundle.error().message);   // "bundles/nightly-42/manifest.json /runs/3/..."
//   for (const ManifestRun& entry : bundle->manifest().runs) {
//     if (entry.status == RunStatus::not_run) continue;
//     auto run = bundle->run(entry.id);             // runs/<id>/run.json, typed
//   }
#pragma once

#include <string>

#include "jbench/common/result.h"
#include "jbench/model/documents.h"
#include "jbench/model/summary.h"

namespace jbench::model {

class BundleReader {
 public:
  // Reads <dir>/manifest.json: a missing, unparsable or ill-typed one is the error.
  static Result<BundleReader> open(const std::string& dir);

  const std::string& dir() const { return dir_; }
  const Manifest& manifest() const { return manifest_; }
  // plan.json, typed; an error when it is missing or ill-typed (a reader may do without it).
  Result<Plan> plan() const;
  // <dir>/runs/<id>
  std::string run_dir(const std::string& id) const;
  // runs/<id>/run.json, typed.
  Result<RunDocument> run(const std::string& id) const;
  // runs/<id>/summary.json, typed (a run that did not end ok may have none).
  Result<Summary> summary(const std::string& id) const;

 private:
  BundleReader(std::string dir, Manifest manifest)
      : dir_(std::move(dir)), manifest_(std::move(manifest)) {}
  std::string dir_;
  Manifest manifest_;
};

}  // namespace jbench::model
