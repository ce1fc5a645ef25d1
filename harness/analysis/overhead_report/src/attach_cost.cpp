#include "jbench/overhead_report/attach_cost.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <vector>

#include "jbench/overhead_report/bundle_runs.h"
#include "jbench/overhead_report/overhead.h"
#include "jbench/stats/median.h"

namespace jbench::overhead_report {

namespace fs = std::filesystem;

std::string AttachCost::source() const {
  return fmt::format("measured: median of {} traced runs' tracer attach in {}", runs, bundle);
}

std::optional<AttachCost> attach_cost(const std::string& bundle_dir) {
  const JudgedRuns bundle = read_bundle_runs(bundle_dir, Summaries::skipped);
  // A plan is estimated from evidence only: not from a bundle that fails its checksums.
  if (!bundle.read || !bundle.judgement.get().valid) return std::nullopt;
  std::vector<double> ns;
  for (const RunFacts& r : bundle.read->runs) {
    if ((r.trace == TraceMode::light || r.trace == TraceMode::full) && r.tracer_attach_ns) {
      ns.push_back(static_cast<double>(*r.tracer_attach_ns));
    }
  }
  const auto middle = stats::median(ns);
  if (!middle) return std::nullopt;
  return AttachCost{static_cast<std::uint64_t>(*middle / 1e6), ns.size(), bundle_dir};
}

std::optional<AttachCost> latest_attach_cost(const std::string& bundles_dir) {
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, std::string>> bundles;
  for (fs::directory_iterator it(bundles_dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.' || name.ends_with(".invalid")) continue;
    const fs::path manifest = it->path() / "manifest.json";
    std::error_code stat_ec;
    const auto when = fs::last_write_time(manifest, stat_ec);
    if (!stat_ec) bundles.emplace_back(when, it->path().string());
  }
  std::sort(bundles.begin(), bundles.end(), std::greater<>());
  // The newest few only: a folder of baseline-only bundles must not cost a scan of all of them.
  constexpr std::size_t kLooked = 5;
  for (std::size_t i = 0; i < bundles.size() && i < kLooked; ++i) {
    if (auto cost = attach_cost(bundles[i].second)) return cost;
  }
  return std::nullopt;
}

}  // namespace jbench::overhead_report
