#include "jbench/oracle_pass/oracle_bundle.h"

#include "jbench/common/clock.h"
#include "jbench/provenance/build_info.h"
#include "jbench/provenance/host_fingerprint.h"

namespace jbench::oracle_pass {

void write_oracle_record(EvidenceBundle& bundle, const std::string& prefix,
                         const OracleRecord& record, const OracleMatrix& matrix) {
  bundle.json(prefix + "oracle.json", record.document);
  bundle.text(prefix + "matrix.yaml", matrix.source_text);
  for (const auto& [file, text] : record.files) bundle.text(prefix + file, text);
  bundle.json(prefix + "provenance/build.json", build_info());
  bundle.json(prefix + "provenance/host.json", host_fingerprint());
}

Result<WrittenBundle> write_oracle_bundle(const OracleRecord& record, const OracleMatrix& matrix,
                                          const std::string& out_dir, std::string name) {
  if (name.empty()) name = matrix.name + "-" + utc_now("%Y%m%dT%H%M%SZ");
  auto staged = EvidenceBundle::create(out_dir, name);
  if (!staged) return staged.error();
  EvidenceBundle& bundle = *staged;
  write_oracle_record(bundle, "", record, matrix);
  auto sealed = bundle.seal(record.interrupted());
  if (!sealed) return sealed.error();
  return WrittenBundle{sealed->path, sealed->valid, sealed->failures};
}

}  // namespace jbench::oracle_pass
