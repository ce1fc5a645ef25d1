#include "jbench/attribution/bundle_accounts.h"

#include <fmt/format.h>

#include <filesystem>

#include "jbench/bundle/bundle_validity.h"
#include "jbench/common/parallel.h"
#include "jbench/overhead_report/bundle_runs.h"
#include "run_reader.h"

namespace jbench::attribution {

namespace {

std::string name_of(const std::string& dir) {
  const std::filesystem::path normal = std::filesystem::path(dir).lexically_normal();
  return normal.has_filename() ? normal.filename().string()
                               : normal.parent_path().filename().string();
}

// The light and full runs to account, by index; the others that did not succeed are skipped,
// each with why.
std::vector<std::size_t> traced_runs(BundleAccounts& out) {
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
  return traced;
}

// Every traced run's account, read on a few threads, each result in its own slot; the first
// run's error, in order, when any cannot be read.
Status add_accounts(const std::string& dir, const ReadOptions& options, BundleAccounts& out) {
  const std::vector<std::size_t> traced = traced_runs(out);
  std::vector<std::optional<Result<RunRead>>> results(traced.size());
  parallel_for(traced.size(), options.threads,
               [&](std::size_t k) { results[k] = read_run(dir, out.runs[traced[k]]); });
  for (auto& r : results) {
    if (!*r) return r->error();
    out.syscall_records += (**r).syscall_records;
    out.bytes_read += (**r).bytes;
    out.accounts.push_back(std::move((**r).account));
  }
  return {};
}

Result<BundleAccounts> accounts_of(const std::string& dir, const ReadOptions& options,
                                   overhead_report::BundleRuns runs) {
  BundleAccounts out;
  out.name = name_of(dir);
  out.runs = std::move(runs.runs);
  out.status = runs.manifest->status;
  auto counted = overhead_report::read_counted_cells(out.runs);
  if (!counted) return counted.error();
  auto counters = overhead_report::read_project_counters(out.runs);
  if (!counters) return counters.error();
  out.counted = std::move(*counted);
  out.project_counters = std::move(*counters);
  if (const Status read = add_accounts(dir, options, out); !read) return read.error();
  return out;
}

}  // namespace

JudgedAccounts read_bundle_accounts(const std::string& dir, const ReadOptions& options) {
  auto runs = overhead_report::read_bundle_runs(dir);
  // Judged while the runs are read (bundle_runs.h): the verdict is awaited only once they are.
  if (!runs.read) return {runs.judgement.get(), runs.read.error()};
  auto accounts = accounts_of(dir, options, std::move(*runs.read));
  return {runs.judgement.get(), std::move(accounts)};
}

}  // namespace jbench::attribution
