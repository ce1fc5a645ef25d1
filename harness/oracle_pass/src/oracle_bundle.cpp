#include "jbench/oracle_pass/oracle_bundle.h"

#include "jbench/common/clock.h"
#include "jbench/provenance/build_info.h"
#include "jbench/provenance/host_fingerprint.h"
#include "jbench/validate/validate.h"

namespace jbench::oracle_pass {

Status write_oracle_record(StagingBundle& bundle, const std::string& prefix,
                           const OracleRecord& record, const OracleMatrix& matrix) {
  Status first;
  auto keep = [&first](Status s) {
    if (first.ok() && !s.ok()) first = std::move(s);
  };
  keep(bundle.write_json(prefix + "oracle.json", record.document));
  keep(bundle.write_file(prefix + "matrix.yaml", matrix.source_text));
  for (const auto& [file, text] : record.files) keep(bundle.write_file(prefix + file, text));
  keep(bundle.write_json(prefix + "provenance/build.json", build_info()));
  keep(bundle.write_json(prefix + "provenance/host.json", host_fingerprint()));
  return first;
}

Result<WrittenBundle> write_oracle_bundle(const OracleRecord& record, const OracleMatrix& matrix,
                                          const std::string& out_dir, std::string name) {
  if (name.empty()) name = matrix.name + "-" + utc_now("%Y%m%dT%H%M%SZ");
  auto staged = StagingBundle::create(out_dir, name);
  if (!staged) return staged.error();
  StagingBundle& b = *staged;
  Status written = write_oracle_record(b, "", record, matrix);
  // The same checks anyone runs later, less SHA256SUMS, which comes after.
  ValidationReport report = validate_bundle(b.root(), BundleStage::staged);
  WrittenBundle out;
  out.valid = report.valid() && written.ok();
  nlohmann::json validation = report_to_json(report);
  validation["bundle"] = name;
  validation["stage"] = "staged: every check but SHA256SUMS, which is written after this file";
  validation["valid"] = out.valid;
  validation["write_failures"] =
      written.ok() ? nlohmann::json::array() : nlohmann::json::array({written.error().message});
  Status v = b.write_json("validation.json", validation);
  if (!v.ok()) out.valid = false;
  auto final_path = b.finalize(!out.valid             ? Outcome::invalid
                               : record.interrupted() ? Outcome::interrupted
                                                      : Outcome::complete);
  if (!final_path) return final_path.error();
  out.path = *final_path;
  return out;
}

}  // namespace jbench::oracle_pass
