#include "jbench/attribution/bundle_accounts.h"

#include <fmt/format.h>

#include <filesystem>

#include "jbench/bundle/bundle_validity.h"
#include "jbench/common/parallel.h"
#include "jbench/overhead_report/bundle_runs.h"
#include "run_reader.h"

namespace jbench::attribution {

BundleAccounts read_bundle_accounts(const std::string& dir, const ReadOptions& options) {
  BundleAccounts out;
  const std::filesystem::path normal = std::filesystem::path(dir).lexically_normal();
  out.name =
      normal.has_filename() ? normal.filename().string() : normal.parent_path().filename().string();
  auto runs = overhead_report::read_bundle_runs(dir);
  // Judged while the runs are read (bundle_runs.h): the verdict is needed only before anything
  // is reported, and when the bundle cannot be read, to say first that it is invalid.
  const auto judged = [&out, &runs] {
    out.valid = runs.judgement.get().valid;
    out.invalid_because = runs.judgement.get().reasons;
  };
  if (!runs.error.empty()) {
    out.error = runs.error;
    judged();
    return out;
  }
  out.runs = std::move(runs.runs);
  out.status = runs.manifest->status;
  auto counted = overhead_report::read_counted_cells(out.runs);
  auto counters = overhead_report::read_project_counters(out.runs);
  if (!counted || !counters) {
    out.error = (counted ? counters.error() : counted.error()).message;
    judged();
    return out;
  }
  out.counted = std::move(*counted);
  out.project_counters = std::move(*counters);

  std::vector<std::size_t> traced;
  for (std::size_t i = 0; i < out.runs.size(); ++i) {
    const auto& r = out.runs[i];
    if (r.trace != TraceMode::light && r.trace != TraceMode::full) continue;
    if (r.status != RunStatus::ok) {
      out.skipped.push_back(fmt::format("{}: status {}, not accounted", r.id,
                                        r.status ? run_status_name(*r.status) : "unknown"));
      continue;
    }
    traced.push_back(i);
  }
  // Runs are independent: read on a few threads, each result in its own slot.
  std::vector<std::optional<Result<RunRead>>> results(traced.size());
  parallel_for(traced.size(), options.threads,
               [&](std::size_t k) { results[k] = read_run(dir, out.runs[traced[k]]); });
  judged();
  for (auto& r : results) {
    if (!*r) {
      if (out.error.empty()) out.error = r->error().message;  // the first run's, in order
      continue;
    }
    out.syscall_records += (**r).syscall_records;
    out.bytes_read += (**r).bytes;
    out.accounts.push_back(std::move((**r).account));
  }
  return out;
}

}  // namespace jbench::attribution
