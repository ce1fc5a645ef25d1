// The oracle record as files: a bundle of its own (`jbench oracle`), or the oracle/ directory of
// a performance bundle whose matrix asks for one (`jbench run`). Layout (docs/oracle.md):
//
//   oracle.json          the record (manifests/oracle.schema.json)
//   matrix.yaml          the oracle matrix, verbatim (its hash is in oracle.json)
//   reductions/<c>.sql   each first divergence reduced to a script the sqlite3 shell runs
//   provenance/build.json, provenance/host.json
//   validation.json, SHA256SUMS    (a bundle of its own only)
//
//   auto path = write_oracle_bundle(record, matrix, "bundles");   // "bundles/oracle-2026...Z"
#pragma once

#include <string>

#include "jbench/common/result.h"
#include "jbench/matrix/oracle_matrix.h"
#include "jbench/oracle_pass/oracle_pass.h"
#include "jbench/seal/evidence_bundle.h"

namespace jbench::oracle_pass {

// Writes the record's files under `prefix` ("" or "oracle/") of a bundle being staged; every
// file is tried, and a failure is the bundle's to record (it is then sealed invalid).
void write_oracle_record(EvidenceBundle& bundle, const std::string& prefix,
                         const OracleRecord& record, const OracleMatrix& matrix);

struct WrittenBundle {
  std::string path;  // the final directory (".invalid" appended when it failed its own checks,
                     // ".interrupted" when a signal stopped the pass)
  bool valid = false;
  std::vector<std::string> not_written;  // files that could not be written: the bundle is invalid
};

// A bundle of its own, sealed as every bundle is (EvidenceBundle::seal); an interrupted pass's
// bundle is named <name>.interrupted. An error: the bundle could not be staged or sealed.
// `name` empty: <matrix name>-<UTC time>.
Result<WrittenBundle> write_oracle_bundle(const OracleRecord& record, const OracleMatrix& matrix,
                                          const std::string& out_dir, std::string name = "");

}  // namespace jbench::oracle_pass
