#include "jbench/plan/shard.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <numeric>
#include <set>

#include "plan_internal.h"

namespace jbench {
namespace {

// A phase that counts operations has no duration the plan can know: each counts as this much,
// so that blocks of more runs still weigh more.
constexpr std::uint64_t kOperationsPhaseMs = 1000;

std::optional<std::uint32_t> number(std::string_view s) {
  std::uint32_t v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

Result<ShardSpec> parse_shard(std::string_view text) {
  const auto slash = text.find('/');
  const auto k = slash == std::string_view::npos ? std::nullopt : number(text.substr(0, slash));
  const auto n = slash == std::string_view::npos ? std::nullopt : number(text.substr(slash + 1));
  const auto bad = [](std::string message) {
    return Error{std::move(message), 0, ErrorKind::input};
  };
  if (!k || !n) return bad(fmt::format("'{}' is not K/N (shard K of N, K from 0 to N-1)", text));
  if (*n < 1 || *n > kMaxShards)
    return bad(fmt::format("'{}': N must be in 1..{}", text, kMaxShards));
  if (*k >= *n) return bad(fmt::format("'{}': shards are numbered 0 to {}", text, *n - 1));
  return ShardSpec{*k, *n};
}

Result<ShardSpec> resolve_shard(std::string_view text,
                                const std::function<std::optional<std::string>(const char*)>& env) {
  const auto unset = [text](const char* name) {
    return Error{fmt::format("'{}' needs {} in the environment, which is not set", text, name), 0,
                 ErrorKind::input};
  };
  if (text == "slurm") {
    const auto k = env("SLURM_ARRAY_TASK_ID");
    if (!k) return unset("SLURM_ARRAY_TASK_ID");
    const auto n = env("SLURM_ARRAY_TASK_COUNT");
    if (!n) return unset("SLURM_ARRAY_TASK_COUNT");
    auto spec = parse_shard(*k + "/" + *n);
    if (!spec) return spec.error().within("'slurm' (SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT)");
    return spec;
  }
  if (text.starts_with("k8s/")) {
    const auto k = env("JOB_COMPLETION_INDEX");
    if (!k) return unset("JOB_COMPLETION_INDEX");
    auto spec = parse_shard(*k + "/" + std::string(text.substr(4)));
    if (!spec) return spec.error().within(fmt::format("'{}' (JOB_COMPLETION_INDEX/N)", text));
    return spec;
  }
  return parse_shard(text);
}

std::uint64_t block_estimate_ms(const Plan& plan, const Block& block) {
  // The assumed figures, never the tracer attach one machine measured in its earlier bundles
  // (PlanOptions::tracer_attach_ms): every shard must compute the same partition.
  const Estimate e = detail::make_estimate(*plan.matrix, {}, PlanOptions{});
  const Matrix& m = *plan.matrix;
  const auto phase_ms = [](const Phase& p) {
    return p.kind == Phase::Kind::duration ? p.amount : kOperationsPhaseMs;
  };
  const std::uint64_t per_run = phase_ms(m.warmup) + phase_ms(m.measure) + kRunOverheadMs;
  std::uint64_t total = 0;
  for (std::uint32_t i = 0; i < block.run_count; ++i) {
    const Run& r = plan.runs[block.first_run + i];
    total += per_run;
    if (r.trace == TraceMode::light) total += e.attach_per_traced_run_ms + e.after_light_run_ms;
    if (r.trace == TraceMode::full) total += e.attach_per_traced_run_ms + e.after_full_run_ms;
  }
  return total;
}

std::vector<std::uint32_t> assign_blocks(const Plan& plan, std::uint32_t count) {
  const std::size_t n = plan.blocks.size();
  std::vector<std::uint64_t> weight(n);
  for (std::size_t b = 0; b < n; ++b) weight[b] = block_estimate_ms(plan, plan.blocks[b]);
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return weight[a] > weight[b]; });
  std::vector<std::uint64_t> load(std::max<std::uint32_t>(count, 1), 0);
  std::vector<std::uint32_t> owner(n, 0);
  for (std::size_t b : order) {
    const auto least = static_cast<std::uint32_t>(std::min_element(load.begin(), load.end()) -
                                                  load.begin());  // the first on a tie
    owner[b] = least;
    load[least] += weight[b];
  }
  return owner;
}

Plan shard_plan(const Plan& whole, ShardSpec spec) {
  const std::vector<std::uint32_t> owner = assign_blocks(whole, spec.count);
  Plan out = whole;
  out.shard = spec;
  out.whole_plan_blocks = whole.blocks.size();
  out.whole_plan_runs = whole.runs.size();
  out.blocks.clear();
  out.runs.clear();
  out.counts.implicit_baselines = 0;
  // The lowest shard that runs a repetition of each cell, and whether this one does.
  std::vector<std::uint32_t> first_owner(whole.cells.size(), spec.count);
  std::vector<bool> here(whole.cells.size(), false);
  for (std::size_t b = 0; b < whole.blocks.size(); ++b) {
    const Block& block = whole.blocks[b];
    for (std::uint32_t i = 0; i < block.run_count; ++i) {
      const Run& r = whole.runs[block.first_run + i];
      if (r.cell == kNoCell) continue;
      first_owner[r.cell] = std::min(first_owner[r.cell], owner[b]);
      if (owner[b] == spec.index) here[r.cell] = true;
    }
    if (owner[b] != spec.index) continue;
    Block kept = block;
    kept.first_run = static_cast<std::uint32_t>(out.runs.size());
    const auto index = static_cast<std::uint32_t>(out.blocks.size());
    for (std::uint32_t i = 0; i < block.run_count; ++i) {
      Run r = whole.runs[block.first_run + i];
      r.block = index;
      if (r.implicit) ++out.counts.implicit_baselines;
      out.runs.push_back(r);
    }
    out.blocks.push_back(kept);
  }
  out.counts.cells_by_state = {};
  for (std::size_t c = 0; c < out.cells.size(); ++c) {
    Cell& cell = out.cells[c];
    if (cell.state == PlanState::measured && !here[c]) {
      cell.state = PlanState::delegated;
      cell.reason = CellReason::other_shard;
      cell.owner = first_owner[c];
    }
    ++out.counts.cells_by_state[static_cast<std::size_t>(cell.state)];
  }
  out.counts.blocks = out.blocks.size();
  out.counts.runs = out.runs.size();
  const Matrix& m = *out.matrix;
  out.estimate = detail::make_estimate(m, out.runs, out.options);
  const bool implicit_baseline = std::find(m.trace_modes.begin(), m.trace_modes.end(),
                                           TraceMode::baseline) == m.trace_modes.end();
  out.axes = detail::axis_states(out, implicit_baseline);
  return out;
}

namespace {

// "a, b, c and 4 more": runs named in a finding, the first few of them.
std::string some(const std::vector<std::string>& ids) {
  constexpr std::size_t kShown = 3;
  std::string out;
  for (std::size_t i = 0; i < ids.size() && i < kShown; ++i) out += (i ? ", " : "") + ids[i];
  if (ids.size() > kShown) out += fmt::format(" and {} more", ids.size() - kShown);
  return out;
}

// Every index 0..N-1 given exactly once, and none beyond.
void check_indices(const std::vector<ShardClaim>& claims, std::uint32_t count,
                   const std::map<std::string, std::uint32_t>& owner_of,
                   std::vector<CoverageFinding>& out) {
  std::map<std::uint32_t, std::vector<std::string>> by_index;
  for (const auto& c : claims) by_index[c.spec.index].push_back(c.source);
  for (std::uint32_t k = 0; k < count; ++k) {
    auto it = by_index.find(k);
    if (it == by_index.end()) {
      std::vector<std::string> its_runs;
      for (const auto& [id, o] : owner_of) {
        if (o == k) its_runs.push_back(id);
      }
      out.push_back(
          {"merge.missing_shard", fmt::format("shard {}/{} is missing: its {} runs are absent: {}",
                                              k, count, its_runs.size(), some(its_runs))});
    } else if (it->second.size() > 1) {
      std::string sources;
      for (const auto& s : it->second) sources += (sources.empty() ? "" : ", ") + s;
      out.push_back({"merge.duplicate_shard", fmt::format("shard {}/{} is given {} times: {}", k,
                                                          count, it->second.size(), sources)});
    }
  }
  for (const auto& k : by_index) {
    if (k.first >= count) {
      out.push_back(
          {"merge.missing_shard", fmt::format("{} claims shard {}/{}, which does not exist",
                                              k.second[0], k.first, count)});
    }
  }
}

// A shard holds exactly its own runs: none unplanned, none of another shard's, none twice, none
// missing.
void check_claim_runs(const ShardClaim& c, std::uint32_t count,
                      const std::map<std::string, std::uint32_t>& owner_of,
                      std::vector<CoverageFinding>& out) {
  std::set<std::string> held;
  std::vector<std::string> unplanned, elsewhere, twice, missing;
  for (const auto& id : c.run_ids) {
    if (!held.insert(id).second) twice.push_back(id);
    auto it = owner_of.find(id);
    if (it == owner_of.end()) {
      unplanned.push_back(id);
    } else if (it->second != c.spec.index) {
      elsewhere.push_back(id);
    }
  }
  for (const auto& [id, k] : owner_of) {
    if (k == c.spec.index && !held.count(id)) missing.push_back(id);
  }
  const std::string who = fmt::format("{} (shard {}/{})", c.source, c.spec.index, count);
  if (!unplanned.empty()) {
    out.push_back({"merge.unplanned_run", fmt::format("{} holds {} runs the plan does not have: {}",
                                                      who, unplanned.size(), some(unplanned))});
  }
  if (!elsewhere.empty()) {
    out.push_back({"merge.wrong_shard_run", fmt::format("{} holds {} runs of other shards: {}", who,
                                                        elsewhere.size(), some(elsewhere))});
  }
  if (!twice.empty()) {
    out.push_back({"merge.duplicate_run",
                   fmt::format("{} holds {} runs twice: {}", who, twice.size(), some(twice))});
  }
  if (!missing.empty()) {
    out.push_back({"merge.missing_run",
                   fmt::format("{} lacks {} of its runs: {}", who, missing.size(), some(missing))});
  }
}

}  // namespace

std::vector<CoverageFinding> check_shard_coverage(const Plan& whole,
                                                  const std::vector<ShardClaim>& claims) {
  std::vector<CoverageFinding> out;
  if (claims.empty()) {
    out.push_back({"merge.missing_shard", "no shard was given"});
    return out;
  }
  const std::uint32_t count = claims[0].spec.count;
  for (const auto& c : claims) {
    if (c.spec.count != count) {
      out.push_back({"merge.shard_count",
                     fmt::format("{} is shard {}/{}, but {} is one of {} shards", c.source,
                                 c.spec.index, c.spec.count, claims[0].source, count)});
    }
  }
  if (!out.empty()) return out;  // which runs belong where depends on N: nothing more to say
  // Each run's owner in the whole plan.
  const std::vector<std::uint32_t> owner = assign_blocks(whole, count);
  std::map<std::string, std::uint32_t> owner_of;
  for (const Run& r : whole.runs) owner_of[run_id(whole, r)] = owner[r.block];
  check_indices(claims, count, owner_of, out);
  for (const auto& c : claims) check_claim_runs(c, count, owner_of, out);
  return out;
}

}  // namespace jbench
