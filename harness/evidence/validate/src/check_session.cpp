// The session's bookkeeping: the manifest's run list against runs/ and plan.json, and the
// matrix copy against the hash the manifest recorded.
#include <fmt/format.h>

#include <map>
#include <set>

#include "checks.h"
#include "jbench/bundle/sha256sums.h"

namespace jbench::validate {
namespace {

void check_matrix_copy(const BundleView& bundle, Findings& findings) {
  const Json* matrix = member(*bundle.manifest, "matrix");
  if (!matrix) return;
  const auto recorded = string_at(*matrix, "sha256");
  const std::string copy = string_at(*matrix, "copy").value_or("matrix.yaml");
  if (!recorded) return;  // the schema check reports it
  auto digest = file_sha256(bundle.root + "/" + copy);
  if (!digest) {
    findings.add("document.missing", copy, "", digest.error().message);
  } else if (*digest != *recorded) {
    findings.add(
        "matrix.sha256_mismatch", copy, "",
        fmt::format("its sha256 is {}, manifest.json /matrix/sha256 says {}", *digest, *recorded));
  }
}

}  // namespace

void check_session(const BundleView& bundle, Findings& findings) {
  if (!bundle.manifest) return;
  const Json& manifest = *bundle.manifest;
  const auto listed = entries_by_id(manifest, "manifest.json", "runs", &findings);

  std::map<std::string, const RunView*> dirs;
  for (const auto& r : bundle.runs) dirs[r.id] = &r;

  for (const auto& [id, entry] : listed) {
    const std::string& pointer = entry.pointer;
    const auto status = string_at(*entry.object, "status");
    auto dir = dirs.find(id);
    // A run that never started has nothing to keep; every other one left its directory.
    if (dir == dirs.end()) {
      if (status != "not_run") {
        findings.add(
            "runs.missing_dir", "manifest.json", pointer,
            fmt::format("run '{}' ({}) has no directory runs/{}", id, status.value_or("?"), id));
      }
      continue;
    }
    if (!dir->second->run) continue;
    const Json& run = *dir->second->run;
    const auto run_status = string_at(run, "status");
    if (status && run_status && *status != *run_status) {
      findings.add("runs.status_mismatch", dir->second->dir + "/run.json", "/status",
                   fmt::format("run.json says '{}', manifest.json {}/status says '{}'", *run_status,
                               pointer, *status));
    }
  }
  for (const auto& r : bundle.runs) {
    if (!listed.count(r.id)) {
      findings.add("runs.unlisted_dir", r.dir, "",
                   fmt::format("runs/{} is not a run of manifest.json", r.id));
    }
    const auto id = r.run ? string_at(*r.run, "id") : std::nullopt;
    if (id && *id != r.id) {
      findings.add("runs.id_mismatch", r.dir + "/run.json", "/id",
                   fmt::format("run.json says it is '{}' but lives in runs/{}", *id, r.id));
    }
  }
  if (bundle.plan) {
    const auto planned = entries_by_id(*bundle.plan, "plan.json", "runs", &findings);
    for (const auto& [id, entry] : listed) {
      if (!planned.count(id)) {
        findings.add("runs.plan_mismatch", "manifest.json", entry.pointer,
                     fmt::format("run '{}' is not in plan.json", id));
      }
    }
    for (const auto& [id, entry] : planned) {
      if (!listed.count(id)) {
        findings.add("runs.plan_mismatch", "plan.json", entry.pointer,
                     fmt::format("planned run '{}' is not in manifest.json", id));
      }
    }
  }
  check_matrix_copy(bundle, findings);
}

}  // namespace jbench::validate
