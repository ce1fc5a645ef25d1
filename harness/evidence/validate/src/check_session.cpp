// The session's bookkeeping: the manifest's run list against runs/ and plan.json, and the
// matrix copy against the hash the manifest recorded.
#include <fmt/format.h>

#include <map>
#include <set>

#include "checks.h"
#include "jbench/bundle/sha256sums.h"

namespace jbench::validate {
namespace {

// id -> index in the document's "runs" array; duplicates reported under `code`.
std::map<std::string, std::size_t> run_ids(const Json& doc, const std::string& file,
                                           Findings& findings) {
  std::map<std::string, std::size_t> ids;
  const Json* runs = member(doc, "runs");
  if (!runs || !runs->is_array()) return ids;
  for (std::size_t i = 0; i < runs->size(); ++i) {
    const auto id = string_at((*runs)[i], "id");
    if (!id) continue;  // the schema check reports it
    if (!ids.emplace(*id, i).second) {
      findings.add("runs.duplicate_id", file, fmt::format("/runs/{}/id", i),
                   fmt::format("run id '{}' is listed twice", *id));
    }
  }
  return ids;
}

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
  const auto listed = run_ids(manifest, "manifest.json", findings);
  const Json* manifest_runs = member(manifest, "runs");

  std::map<std::string, const RunView*> dirs;
  for (const auto& r : bundle.runs) dirs[r.id] = &r;

  for (const auto& [id, i] : listed) {
    const Json& entry = (*manifest_runs)[i];
    const std::string pointer = fmt::format("/runs/{}", i);
    const auto status = string_at(entry, "status");
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
    const auto planned = run_ids(*bundle.plan, "plan.json", findings);
    for (const auto& [id, i] : listed) {
      if (!planned.count(id)) {
        findings.add("runs.plan_mismatch", "manifest.json", fmt::format("/runs/{}", i),
                     fmt::format("run '{}' is not in plan.json", id));
      }
    }
    for (const auto& [id, i] : planned) {
      if (!listed.count(id)) {
        findings.add("runs.plan_mismatch", "plan.json", fmt::format("/runs/{}", i),
                     fmt::format("planned run '{}' is not in manifest.json", id));
      }
    }
  }
  check_matrix_copy(bundle, findings);
}

}  // namespace jbench::validate
