#include "bundle_input.h"

#include <fmt/format.h>

#include <algorithm>

#include "jbench/model/bundle_reader.h"

namespace jbench::exports {
namespace {

using model::BundleReader;

// The raw files are the collectors' entries' own `raw` (docs/events.md), never a guess from the
// directory: a file no entry names is not evidence of this run.
void take_raw_files(const model::RunDocument& run, RunInput& r) {
  for (const model::CollectorEntry& c : run.collectors) {
    if (c.raw.empty()) continue;
    for (const std::string& f : c.raw) r.raw_files.push_back(r.dir + "/" + f);
    if (c.name == "bridge") {
      // One file a worker: a list, or (one worker) the file itself, as the validator reads it.
      for (const std::string& f : c.raw) r.bridge_files.push_back(r.dir + "/" + f);
      r.bridge_records = c.records;
    } else if (c.name == "syscall" && c.raw.size() == 1) {
      r.syscall_file = r.dir + "/" + c.raw[0];
      r.syscall_records = c.records;
    }
  }
}

Result<RunInput> read_run(const BundleReader& bundle, const std::string& id) {
  const auto run = bundle.run(id);
  if (!run) return run.error();
  RunInput r;
  r.id = id;
  r.dir = bundle.run_dir(id);
  r.cohort = run->cohort;
  for (const auto& [name, ns] : run->boundaries) {
    r.boundaries.emplace_back(name.substr(0, name.size() - 3), ns);  // "measure_start"
  }
  std::sort(r.boundaries.begin(), r.boundaries.end(),
            [](const auto& a, const auto& b) { return a.second < b.second; });
  take_raw_files(*run, r);
  return r;
}

}  // namespace

BundleInput read_bundle_input(const BundleReader& bundle,
                              const std::optional<std::string>& only_run) {
  BundleInput out;
  if (!bundle.manifest()) {
    out.error = bundle.manifest().error().message;
    return out;
  }
  const std::string& dir = bundle.dir();
  out.status = bundle.manifest()->status;
  std::vector<std::string> known;
  for (const model::ManifestRun& entry : bundle.manifest()->runs) {
    known.push_back(entry.id);
    if (only_run && entry.id != *only_run) continue;
    if (entry.status == RunStatus::not_run) {
      if (only_run) {
        out.error = fmt::format("run '{}' did not run in {} (status not_run): nothing to export",
                                entry.id, dir);
        return out;
      }
      continue;
    }
    auto run = read_run(bundle, entry.id);
    if (!run) {
      out.error = run.error().message;
      return out;
    }
    out.runs.push_back(std::move(*run));
  }
  if (only_run && out.runs.empty()) {
    out.error = fmt::format("no run '{}' in {}/manifest.json; its runs are: {}", *only_run, dir,
                            fmt::join(known, ", "));
  }
  return out;
}

}  // namespace jbench::exports
