#include "jbench/merge/shard_check.h"

#include <fmt/format.h>

#include <map>
#include <set>

#include "jbench/matrix/load.h"
#include "jbench/matrix/param_override.h"
#include "jbench/model/documents.h"
#include "jbench/plan/shard.h"
#include "json_at.h"

namespace jbench::merge {
namespace {

using Json = nlohmann::json;

// What the shard says it was: share K of N (a count of at least one), or none.
std::optional<ShardSpec> spec_of(const model::Planning& p) {
  if (!p.shard || p.shard->count < 1 || p.shard->index > UINT32_MAX ||
      p.shard->count > UINT32_MAX) {
    return std::nullopt;
  }
  return ShardSpec{static_cast<std::uint32_t>(p.shard->index),
                   static_cast<std::uint32_t>(p.shard->count)};
}

// The filters as `--only` spelled them, to be read again against the matrix.
std::vector<std::string> only_arguments(const std::vector<model::AxisFilter>& filters) {
  std::vector<std::string> out;
  for (const model::AxisFilter& f : filters) {
    std::string arg = f.axis + "=";
    for (std::size_t i = 0; i < f.values.size(); ++i) arg += (i ? "," : "") + f.values[i];
    out.push_back(arg);
  }
  return out;
}

// A shard's documents typed: its manifest's planning and its plan.
struct ShardRecords {
  model::Planning planning;
  model::Plan plan;
};

class Checker {
 public:
  explicit Checker(const std::vector<ShardFacts>& shards) : shards_(shards) {}

  ShardCheck run() {
    for (const ShardFacts& s : shards_) {
      auto read = read_records(s);
      if (!read) return std::move(out_);
      records_.push_back(std::move(*read));
    }
    std::vector<std::optional<ShardSpec>> specs;
    for (std::size_t i = 0; i < shards_.size(); ++i) specs.push_back(read_spec(i));
    std::size_t ref = shards_.size();
    for (std::size_t i = 0; i < shards_.size() && ref == shards_.size(); ++i) {
      if (specs[i]) ref = i;
    }
    if (ref == shards_.size()) return std::move(out_);
    for (std::size_t i = 0; i < shards_.size(); ++i) {
      if (i != ref && specs[i]) agree(ref, i);
    }
    if (!out_.findings.empty()) return std::move(out_);
    auto whole = replan(ref);
    if (!whole) return std::move(out_);

    std::vector<ShardClaim> claims;
    for (std::size_t i = 0; i < shards_.size(); ++i) {
      if (!specs[i]) continue;
      if (specs[i]->count == specs[ref]->count) same_share(*whole, i, *specs[i]);
      claims.push_back({shards_[i].source, *specs[i], records_[i].planning.run_ids});
    }
    for (auto& f : check_shard_coverage(*whole, claims)) add(f.code, f.message);
    if (!out_.findings.empty()) return std::move(out_);

    MergePlan plan;
    std::map<std::string, std::size_t> holder;
    for (std::size_t i = 0; i < shards_.size(); ++i) {
      for (const auto& id : records_[i].planning.run_ids) holder[id] = i;
      plan.specs.push_back(*specs[i]);
    }
    for (const Run& r : whole->runs) {
      plan.run_ids.push_back(run_id(*whole, r));
      plan.shard_of_run.push_back(holder.at(plan.run_ids.back()));
    }
    plan.whole = std::move(*whole);
    out_.plan = std::move(plan);
    return std::move(out_);
  }

 private:
  void add(std::string code, std::string message) {
    out_.findings.push_back({std::move(code), std::move(message)});
  }

  // The shard's manifest and plan typed, or nullopt with what is wrong in them as a finding.
  std::optional<ShardRecords> read_records(const ShardFacts& s) {
    auto planning = model::read_manifest_planning(s.manifest, s.source + "/manifest.json");
    auto plan = model::read_plan(s.plan, s.source + "/plan.json");
    if (!planning || !plan) {
      add("merge.unreadable", (planning ? plan.error() : planning.error()).message);
      return std::nullopt;
    }
    return ShardRecords{std::move(*planning), std::move(*plan)};
  }

  std::optional<ShardSpec> read_spec(std::size_t i) {
    const ShardFacts& s = shards_[i];
    const model::Planning& p = records_[i].planning;
    if (p.merged) {
      add("merge.not_a_run_bundle",
          fmt::format("{} is itself a merged bundle: merge the shards' own bundles", s.source));
      return std::nullopt;
    }
    if (p.status == "interrupted") {
      add("merge.shard_interrupted",
          fmt::format("{} was interrupted: its runs that did not finish are not_run; run the "
                      "shard again",
                      shard_label(s)));
    }
    auto spec = spec_of(p);
    if (!spec) {
      add("merge.not_a_shard",
          fmt::format("{} was not run as a shard (its manifest has no /plan/shard): it is a "
                      "whole session, not a share of one",
                      s.source));
    }
    return spec;
  }

  // The same matrix, plan inputs, build and host class as the first shard.
  void agree(std::size_t r, std::size_t i) {
    const ShardFacts &ref = shards_[r], &s = shards_[i];
    const std::string a = shard_label(ref), b = shard_label(s);
    if (at(ref.manifest, "/matrix/sha256") != at(s.manifest, "/matrix/sha256")) {
      // The same matrix but for its seed is another plan of it: said as such.
      const auto ma = parse_matrix(ref.matrix_text, "matrix.yaml").matrix;
      const auto mb = parse_matrix(s.matrix_text, "matrix.yaml").matrix;
      if (ma && mb && ma->seed != mb->seed) {
        Matrix reseeded = *mb;
        reseeded.seed = ma->seed;
        reseeded.ordering.seed = ma->ordering.seed;
        add("merge.seed_mismatch",
            fmt::format("{} ran its matrix with seed {}, {} with seed {}: their runs' seeds, and "
                        "so their workloads, differ",
                        b, mb->seed, a, ma->seed));
        return;
      }
      add("merge.matrix_mismatch",
          fmt::format(
              "{} ran the matrix {} (sha256 {}), {} the matrix {} (sha256 {})", b,
              at(s.manifest, "/matrix/file").dump(), at(s.manifest, "/matrix/sha256").dump(), a,
              at(ref.manifest, "/matrix/file").dump(), at(ref.manifest, "/matrix/sha256").dump()));
      return;
    }
    for (const char* p : {"/matrix/overrides", "/plan/filters"}) {
      if (at(ref.manifest, p) != at(s.manifest, p)) {
        add("merge.plan_mismatch",
            fmt::format("{} was planned with {} {}, {} with {}", b, p + 1, at(s.manifest, p).dump(),
                        a, at(ref.manifest, p).dump()));
      }
    }
    if (at(ref.manifest, "/jbench") != at(s.manifest, "/jbench")) {
      add("merge.build_mismatch",
          fmt::format("{} ran jbench {}, {} jbench {}", b, at(s.manifest, "/jbench").dump(), a,
                      at(ref.manifest, "/jbench").dump()));
    }
    if (workload_executables(ref.provenance_index) != workload_executables(s.provenance_index)) {
      add("merge.build_mismatch",
          fmt::format("{}'s workers ran other executables than {}'s (sha256 {} against {})", b, a,
                      Json(workload_executables(s.provenance_index)).dump(),
                      Json(workload_executables(ref.provenance_index)).dump()));
    }
    const auto ha = host_class_of(ref), hb = host_class_of(s);
    if (!ha || !hb) return;
    for (const auto& [key, value] : *ha) {
      const auto other = hb->find(key);
      const std::string theirs = other == hb->end() ? "(absent)" : other->second;
      if (theirs != value) {
        add("merge.host_mismatch",
            fmt::format("{} ran on a host with {} {}, {} on one with {}: their timings do not "
                        "belong to one cell",
                        b, key, theirs, a, value));
      }
    }
    const auto& da = records_[r].planning.dataset_contents;
    const auto& db = records_[i].planning.dataset_contents;
    for (const auto& [name, sha] : db) {
      const auto other = da.find(name);
      if (other != da.end() && other->second != sha) {
        add("merge.dataset_mismatch",
            fmt::format("{} built dataset '{}' with content {}, {} with {}", b, name, sha, a,
                        other->second));
      }
    }
  }

  // A shard's host class (model::Host), or nullopt with its manifest's wrong field as a finding.
  std::optional<std::map<std::string, std::string>> host_class_of(const ShardFacts& f) {
    const auto host = model::read_manifest_host(f.manifest, f.source + "/manifest.json");
    if (!host) {
      add("merge.unreadable", host.error().message);
      return std::nullopt;
    }
    return host->host_class();
  }

  // The whole plan, from the first shard's matrix copy and recorded plan inputs.
  std::optional<Plan> replan(std::size_t r) {
    const ShardFacts& ref = shards_[r];
    const model::Planning& p = records_[r].planning;
    const std::string label = shard_label(ref);
    LoadedMatrix loaded = parse_matrix(ref.matrix_text, ref.source + "/matrix.yaml");
    if (!loaded.matrix) {
      add("merge.matrix_mismatch",
          fmt::format("{}'s matrix.yaml does not load with this jbench: {}", label,
                      format_diagnostics(loaded.diagnostics)));
      return std::nullopt;
    }
    const auto overrides =
        model::read_manifest_overrides(ref.manifest, ref.source + "/manifest.json");
    if (!overrides) {
      add("merge.unreadable", overrides.error().message);
      return std::nullopt;
    }
    if (const Status applied = apply_recorded_overrides(*overrides, *loaded.matrix); !applied) {
      add("merge.plan_mismatch", fmt::format("{}: {}", label, applied.error().message));
      return std::nullopt;
    }
    // The path the session read the matrix from, as its plan recorded it (the text is the same).
    loaded.matrix->file = p.matrix_file.value_or(loaded.matrix->file);
    const auto only = only_arguments(p.filters);
    auto filters = parse_only_filters(only, *loaded.matrix);
    if (!filters.errors.empty()) {
      add("merge.plan_mismatch", fmt::format("{}'s recorded filters do not apply to its matrix: {}",
                                             label, filters.errors.front()));
      return std::nullopt;
    }
    HostResources host;
    host.cores = static_cast<std::uint32_t>(p.plan_cores.value_or(host.cores));
    host.memory_mib = p.plan_memory_mib.value_or(host.memory_mib);
    return make_plan(*loaded.matrix, filters.filters, host);
  }

  // The shard's plan.json holds exactly the runs, seeds and order its share of the whole gives.
  void same_share(const Plan& whole, std::size_t i, ShardSpec spec) {
    const ShardFacts& s = shards_[i];
    const Plan expected = shard_plan(whole, spec);
    std::vector<std::pair<std::string, std::string>> have;
    for (const model::PlanRun& run : records_[i].plan.runs) have.emplace_back(run.id, run.seed);
    for (std::size_t i = 0; i < std::max(have.size(), expected.runs.size()); ++i) {
      const std::string want_id =
          i < expected.runs.size() ? run_id(expected, expected.runs[i]) : "";
      const std::string want_seed =
          i < expected.runs.size() ? std::to_string(expected.blocks[expected.runs[i].block].seed)
                                   : "";
      const auto got = i < have.size() ? have[i] : std::pair<std::string, std::string>{};
      if (got.first == want_id && got.second == want_seed) continue;
      add("merge.plan_mismatch",
          fmt::format("{}'s plan.json is not shard {}/{} of the plan its matrix and filters give "
                      "(for a host of {} cores and {} MiB): run #{} is '{}' seed {}, the plan "
                      "says '{}' seed {}",
                      shard_label(s), spec.index, spec.count, whole.host.cores,
                      whole.host.memory_mib, i, got.first.empty() ? "(none)" : got.first,
                      got.second.empty() ? "-" : got.second, want_id.empty() ? "(none)" : want_id,
                      want_seed.empty() ? "-" : want_seed));
      return;
    }
  }

  const std::vector<ShardFacts>& shards_;
  std::vector<ShardRecords> records_;  // records_[i] is shards_[i]'s, typed
  ShardCheck out_;
};

}  // namespace

std::string shard_label(const ShardFacts& shard) {
  const auto planning = model::read_manifest_planning(shard.manifest, "manifest.json");
  const auto spec = planning ? spec_of(*planning) : std::nullopt;
  return spec ? fmt::format("{} (shard {}/{})", shard.source, spec->index, spec->count)
              : shard.source;
}

std::vector<std::string> workload_executables(const Json& provenance_index) {
  std::set<std::string> out;
  const Json sets = at(provenance_index, "/binary_sets");
  if (sets.is_array()) {
    for (const Json& set : sets) {
      const Json binaries = at(set, "/binaries");
      if (!binaries.is_array()) continue;
      for (const Json& b : binaries) {
        if (b.is_object() && b.value("role", "") == "exe") out.insert(b.value("sha256", "?"));
      }
    }
  }
  return {out.begin(), out.end()};
}

ShardCheck check_shards(const std::vector<ShardFacts>& shards) { return Checker(shards).run(); }

}  // namespace jbench::merge
