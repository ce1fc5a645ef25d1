#include "jbench/compare/compare_side.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "compatibility.h"
#include "jbench/bundle/bundle_validity.h"
#include "jbench/bundle/json_file.h"
#include "jbench/compare/metrics.h"
#include "jbench/matrix/load.h"
#include "jbench/matrix/param_override.h"
#include "jbench/matrix/worker_declaration.h"
#include "jbench/overhead_report/bundle_runs.h"
#include "jbench/overhead_report/cell_order.h"
#include "jbench/validate/invalid_because.h"

namespace jbench::compare {

namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

// Every executable of the workload the bundle's provenance index names (role "exe").
std::set<std::string> workload_binaries(const std::string& dir) {
  std::set<std::string> out;
  auto index = read_json_object(dir + "/provenance/index.json");
  if (!index) return out;
  auto sets = index->find("binary_sets");
  if (sets == index->end() || !sets->is_array()) return out;
  for (const Json& set : *sets) {
    auto binaries = set.find("binaries");
    if (binaries == set.end() || !binaries->is_array()) continue;
    for (const Json& b : *binaries) {
      if (b.value("role", "") != "exe") continue;
      out.insert(b.value("sha256", "?") + " " + b.value("path", "?"));
    }
  }
  return out;
}

// The bundle's own verdict and its checksums are proof enough that it is the evidence that was
// validated when it was written; only a bundle that fails them is validated in full, to say why.
// False when the bundle cannot be read at all (side.unreadable says why).
bool judge_side(const std::string& dir, const BundleValidity& judged, CompareSide& side) {
  side.valid = judged.valid;
  if (judged.valid) return true;
  InvalidBecause why = invalid_because(dir, judged);
  if (why.unreadable) {
    side.unreadable = why.reasons.empty() ? "cannot read " + dir : why.reasons.front();
    return false;
  }
  side.findings = std::move(why.reasons);
  return true;
}

// The matrix that ran: the bundle's file with the settings the session replaced (a proposal's
// side), which the manifest records, applied again so that two settings of one matrix are seen
// as what they were. An error when they cannot be; none (and no matrix) when it does not parse.
Status read_side_matrix(const std::string& dir, const model::Manifest& manifest,
                        CompareSide& side) {
  std::ifstream in(dir + "/matrix.yaml", std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  LoadedMatrix loaded = parse_matrix(text.str(), "matrix.yaml");
  if (!loaded.matrix) return {};
  if (loaded.matrix->workload.kind == kProcessKind) {
    const auto plan = read_json_object(dir + "/plan.json");
    const Status declared = plan ? declare_from_plan(*loaded.matrix, *plan) : plan.status();
    if (!declared) return declared;
  }
  if (const Status applied = apply_recorded_overrides(manifest.overrides, *loaded.matrix);
      !applied) {
    return applied;
  }
  side.matrix = std::move(loaded.matrix);
  return {};
}

// Every run's metrics, by cell, with the seed and measure window of each value.
void add_run_metrics(const overhead_report::BundleRuns& runs, CompareSide& side) {
  for (const auto& [point, trace] : overhead_report::ordered_cells(runs.runs)) {
    side.cell_order.push_back(point + "." + trace);
  }
  for (const overhead_report::RunFacts& r : runs.runs) {
    SideCell& cell = side.cells[r.cell + "." + r.trace_name()];
    ++cell.runs;
    if (r.status != RunStatus::ok) continue;
    if (!r.summary) continue;
    const model::Summary& summary = **r.summary;
    ++cell.ok;
    if (summary.counted && !summary.counted->source.empty()) {
      cell.counter_sources.insert(summary.counted->source);
    }
    const auto metrics = run_metrics(summary, r.clean_collectors);
    std::map<std::string, double> calls;
    for (auto& [metric, value] : metrics) {
      if (is_call_count_metric(metric)) {
        calls.emplace(metric, value);  // completed with zeros once every call is known
        continue;
      }
      cell.metrics[metric].push_back(value);
      cell.seeds[metric].push_back(r.seed);
      cell.windows[metric].push_back(
          r.measure_window.value_or(std::pair<std::uint64_t, std::uint64_t>{}));
    }
    if (metrics.contains(kTracedSyscallsPerOp)) cell.calls.push_back(std::move(calls));
  }
}

CompareSide unreadable(CompareSide side, std::string error) {
  side.unreadable = std::move(error);
  return side;
}

CompareSide read_one_bundle(const std::string& dir) {
  CompareSide side;
  side.dir = dir;
  const overhead_report::JudgedRuns runs =
      overhead_report::read_bundle_runs(dir);  // judged meanwhile
  if (!judge_side(dir, runs.judgement.get(), side)) return side;
  if (!runs.read) return unreadable(std::move(side), runs.read.error().message);
  const model::Manifest& manifest = *runs.read->manifest;
  side.host = manifest.host;
  side.started_utc = manifest.started_utc;
  side.jbench_revision = manifest.jbench_revision;
  if (const Status matrix = read_side_matrix(dir, manifest, side); !matrix) {
    return unreadable(std::move(side), matrix.error().message);
  }
  side.workload_binaries = workload_binaries(dir);
  add_run_metrics(*runs.read, side);
  return side;
}

// Pooled: every member must be valid evidence of the same thing; then their cells' samples are
// joined in member order.
CompareSide read_pooled(const std::string& dir, const std::vector<std::string>& members) {
  CompareSide side;
  side.dir = dir;
  side.bundles = members;
  side.valid = true;
  std::string reference;  // the first valid member: what the others are held to
  std::map<std::string, std::string> definition, host;  // the reference's
  for (std::size_t i = 0; i < members.size(); ++i) {
    CompareSide one = read_one_bundle(members[i]);
    if (one.unreadable) {
      side.unreadable = members[i] + ": " + *one.unreadable;
      return side;
    }
    if (!one.valid || !one.matrix) {
      side.valid = false;
      side.findings.push_back(members[i] + " is not valid evidence" +
                              (one.findings.empty() ? "" : ": " + one.findings.front()));
      continue;
    }
    auto d = cell_definition(*one.matrix);
    auto h = one.host.host_class();
    if (reference.empty()) {
      reference = members[i];
      side.matrix = one.matrix;
      side.host = one.host;
      side.workload_binaries = one.workload_binaries;
      side.jbench_revision = one.jbench_revision;
      side.started_utc = one.started_utc;
      definition = d;
      host = h;
    } else {
      for (const auto& diff : differing(definition, d)) {
        side.valid = false;
        side.findings.push_back(members[i] + " measured another matrix than " + reference + ": " +
                                diff);
      }
      for (const auto& diff : differing(host, h)) {
        side.valid = false;
        side.findings.push_back(members[i] + " ran on another host: " + diff);
      }
      if (one.workload_binaries != side.workload_binaries) {
        side.valid = false;
        side.findings.push_back(members[i] + " ran another workload build than " + reference);
      }
      side.started_utc = std::min(side.started_utc, one.started_utc);
    }
    for (const auto& cell : one.cell_order) {  // the members' orders, merged first seen first
      if (std::find(side.cell_order.begin(), side.cell_order.end(), cell) == side.cell_order.end())
        side.cell_order.push_back(cell);
    }
    for (auto& [cell, c] : one.cells) {
      SideCell& pooled = side.cells[cell];
      pooled.runs += c.runs;
      pooled.ok += c.ok;
      for (auto& [metric, values] : c.metrics) {
        auto& to = pooled.metrics[metric];
        to.insert(to.end(), values.begin(), values.end());
        pooled.sessions[metric].insert(pooled.sessions[metric].end(), values.size(), i);
        auto& seeds = pooled.seeds[metric];
        seeds.insert(seeds.end(), c.seeds[metric].begin(), c.seeds[metric].end());
        auto& windows = pooled.windows[metric];
        windows.insert(windows.end(), c.windows[metric].begin(), c.windows[metric].end());
      }
      pooled.calls.insert(pooled.calls.end(), c.calls.begin(), c.calls.end());
      pooled.counter_sources.insert(c.counter_sources.begin(), c.counter_sources.end());
    }
  }
  return side;
}

}  // namespace

std::vector<std::string> bundles_in(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.path().filename().string().starts_with(".")) continue;  // staging and scratch
    if (fs::is_regular_file(e.path() / "manifest.json", ec)) out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

CompareSide read_compare_side(const std::string& dir) {
  std::error_code ec;
  const std::vector<std::string> members =
      fs::is_regular_file(dir + "/manifest.json", ec) || !fs::is_directory(dir, ec)
          ? std::vector<std::string>()
          : bundles_in(dir);
  // An empty folder is read as a bundle, which says why it is not one.
  CompareSide side = members.empty() ? read_one_bundle(dir) : read_pooled(dir, members);
  complete_call_counts(side, call_count_metrics(side));
  return side;
}

std::set<std::string> call_count_metrics(const CompareSide& side) {
  std::set<std::string> names;
  for (const auto& [id, cell] : side.cells) {
    for (const auto& run : cell.calls) {
      for (const auto& [metric, value] : run) names.insert(metric);
    }
  }
  return names;
}

void complete_call_counts(CompareSide& side, const std::set<std::string>& names) {
  for (auto& [id, cell] : side.cells) {
    const auto traced = cell.metrics.find(kTracedSyscallsPerOp);
    // The runs with a clean syscall collector are those with a traced_syscalls_per_op value.
    if (traced == cell.metrics.end() || traced->second.size() != cell.calls.size()) continue;
    for (const std::string& name : names) {
      std::vector<double> values;
      for (const auto& run : cell.calls) {
        const auto it = run.find(name);
        values.push_back(it == run.end() ? 0.0 : it->second);
      }
      cell.metrics[name] = std::move(values);
      if (cell.sessions.contains(kTracedSyscallsPerOp))
        cell.sessions[name] = cell.sessions[kTracedSyscallsPerOp];
      cell.seeds[name] = cell.seeds[kTracedSyscallsPerOp];
      cell.windows[name] = cell.windows[kTracedSyscallsPerOp];
    }
  }
}

}  // namespace jbench::compare
