// make_plan(): cells, blocks, seeds and the execution order. Built for matrices of millions of
// runs: cells and runs are small fixed-size records, reasons are codes turned into text only
// when printed.
#include "jbench/plan/plan.h"

#include <algorithm>

#include "jbench/common/random.h"
#include "plan_internal.h"

namespace jbench {
namespace {

constexpr std::size_t kTrace = static_cast<std::size_t>(Axis::trace);
// Salts keep the block shuffle's stream apart from the per-block mode shuffles.
constexpr std::uint64_t kBlockOrderSalt = 0x626c6f636b73ULL;  // "blocks"
constexpr std::uint64_t kModeOrderSalt = 0x6d6f646573ULL;     // "modes"

// The balanced order of one block (matrix.h, ModeOrder): repetitions are taken in groups of k
// (the block's modes); a group draws one seeded order of the modes and a seeded permutation of
// the k rotations of it, and its j-th repetition runs the j-th rotation. Across a group every
// mode is in every position once; which order, and which rotation falls on which repetition, stay
// random. Pure in (repetition, seed): a block's order never depends on other blocks.
void balance_modes(std::span<std::pair<TraceMode, std::uint32_t>> modes, std::uint32_t repetition,
                   std::uint64_t point_seed) {
  const std::size_t k = modes.size();
  if (k < 2) return;
  SplitMix64 rng(combine64(point_seed, repetition / k));
  std::vector<std::size_t> order(k), rotations(k);
  for (std::size_t i = 0; i < k; ++i) order[i] = rotations[i] = i;
  stable_shuffle(std::span(order), rng);
  stable_shuffle(std::span(rotations), rng);
  const std::size_t shift = rotations[repetition % k];
  std::vector<std::pair<TraceMode, std::uint32_t>> declared(modes.begin(), modes.end());
  for (std::size_t pos = 0; pos < k; ++pos) modes[pos] = declared[order[(pos + shift) % k]];
}

// Which values of each axis --only selects (all, without a filter).
std::array<std::vector<bool>, kAxisCount> selected_values(const Matrix& m,
                                                          std::span<const OnlyFilter> filters) {
  std::array<std::vector<bool>, kAxisCount> selected;
  for (std::size_t a = 0; a < kAxisCount; ++a) selected[a].assign(m.axes[a].labels.size(), true);
  for (const auto& f : filters) {
    auto& sel = selected[static_cast<std::size_t>(f.axis)];
    std::fill(sel.begin(), sel.end(), false);
    for (auto v : f.values) sel[v] = true;
  }
  // A traced mode that runs needs its baseline: --only never filters the baseline away from it.
  auto& trace = selected[kTrace];
  const auto& modes = m.trace_modes;
  const auto baseline = std::find(modes.begin(), modes.end(), TraceMode::baseline);
  if (baseline != modes.end() && std::find(trace.begin(), trace.end(), true) != trace.end()) {
    trace[static_cast<std::size_t>(baseline - modes.begin())] = true;
  }
  return selected;
}

CellReason resource_check(const Matrix& m, const HostResources& host, std::uint32_t workers) {
  if (workers > m.limits.max_workers) return CellReason::max_workers;
  if (m.limits.workers_per_core &&
      std::uint64_t{workers} > std::uint64_t{*m.limits.workers_per_core} * host.cores) {
    return CellReason::host_cores;
  }
  if (m.limits.memory_per_worker_mib &&
      std::uint64_t{workers} * *m.limits.memory_per_worker_mib > host.memory_mib) {
    return CellReason::host_memory;
  }
  return CellReason::none;
}

bool excluded(const Matrix& m, const CellValues& cell) {
  for (const auto& rule : m.excludes) {
    bool match = true;
    for (std::size_t a = 0; a < kAxisCount && match; ++a) {
      const auto& values = rule.values[a];
      if (!values.empty()) match = std::find(values.begin(), values.end(), cell[a]) != values.end();
    }
    if (match) return true;
  }
  return false;
}

// hash[a][v]: the stable hash of "axis=label", combined per point into the block seed.
std::array<std::vector<std::uint64_t>, kAxisCount> value_hashes(const Matrix& m) {
  std::array<std::vector<std::uint64_t>, kAxisCount> hashes;
  for (std::size_t a = 0; a < kAxisCount; ++a) {
    for (const auto& label : m.axes[a].labels) {
      const auto prefix = fnv1a64(m.axis_name(static_cast<Axis>(a)));
      hashes[a].push_back(fnv1a64(label, fnv1a64("=", prefix)));
    }
  }
  return hashes;
}

std::size_t mode_index(const Matrix& m, std::uint16_t trace_label) {
  return static_cast<std::size_t>(m.trace_modes[trace_label]);
}

}  // namespace

namespace detail {

Estimate make_estimate(const Matrix& m, const std::vector<Run>& plan_runs,
                       const PlanOptions& options) {
  Estimate e;
  const std::uint64_t runs = plan_runs.size();
  e.runs = runs;
  for (const Run& r : plan_runs) {
    if (r.trace == TraceMode::light) ++e.light_runs;
    if (r.trace == TraceMode::full) ++e.full_runs;
  }
  e.traced_runs = e.light_runs + e.full_runs;
  e.attach_per_traced_run_ms = options.tracer_attach_ms.value_or(kTracerAttachMs);
  e.attach_source = options.tracer_attach_ms
                        ? options.tracer_attach_source
                        : "assumed: the compiled tracer loads once per session, about 50 ms, "
                          "and is attached and scoped per run in under 10 ms";
  e.after_light_run_ms = kAfterLightRunMs;
  e.after_full_run_ms = kAfterFullRunMs;
  e.after_run_source =
      "assumed: what light and full runs of the SQLite main job took after their phases on a "
      "2-core host; full grows with the calls a run makes";
  e.overhead_per_run_ms = kRunOverheadMs;
  e.bound_ms = runs * std::uint64_t{m.limits.run_timeout_s} * 1000;
  if (m.warmup.kind == Phase::Kind::duration && m.measure.kind == Phase::Kind::duration) {
    e.per_run_ms = m.warmup.amount + m.measure.amount + kRunOverheadMs;
  }
  return e;
}

}  // namespace detail

namespace {

// A point's repetitions, each a block of the modes measured there: pending until the order is
// drawn. The modes of every block sit in one array (block_modes), as (mode, cell or kNoCell).
struct PendingBlock {
  Block block;
  std::uint32_t modes_begin;  // into block_modes
  std::uint64_t point_hash;   // the same for every repetition of the point
};
using BlockModes = std::vector<std::pair<TraceMode, std::uint32_t>>;

// The point's modes that will be measured, in declared order, and their cells' indices.
struct PointModes {
  std::vector<TraceMode> modes;
  std::vector<std::uint32_t> cells;
};

// One point's cells, one per trace mode not excluded, each with its state: resource and filter
// verdicts are shared by the point's modes. `cell` holds the point; its trace value is overwritten.
void add_point_cells(const Matrix& m, const HostResources& host, const PlanOptions& options,
                     const std::array<std::vector<bool>, kAxisCount>& selected, std::size_t modes,
                     CellValues& cell, Plan& plan, PointModes& measured) {
  const std::uint32_t workers = cell[0] == kAbsent ? 1 : m.workers[cell[0]];
  const CellReason resource = resource_check(m, host, workers);
  bool point_selected = true;
  for (std::size_t a = 0; a < kTrace; ++a) {
    if (cell[a] != kAbsent && !selected[a][cell[a]]) point_selected = false;
  }
  measured.modes.clear();
  measured.cells.clear();
  for (std::uint16_t t = 0; t < modes; ++t) {
    cell[kTrace] = t;
    if (excluded(m, cell)) {
      ++plan.counts.excluded;
      continue;
    }
    Cell c{cell, PlanState::measured, CellReason::none};
    if (resource != CellReason::none) {
      c.state = PlanState::skipped;
      c.reason = resource;
    } else if (!point_selected || !selected[kTrace][t]) {
      c.state = PlanState::planned;
      c.reason = CellReason::only_filter;
    } else if (!options.unavailable_trace_modes[mode_index(m, t)].empty()) {
      c.state = PlanState::planned;
      c.reason = CellReason::mode_unavailable;
    }
    ++plan.counts.cells_by_state[static_cast<std::size_t>(c.state)];
    if (c.state == PlanState::measured) {
      measured.modes.push_back(m.trace_modes[t]);
      measured.cells.push_back(static_cast<std::uint32_t>(plan.cells.size()));
    }
    plan.cells.push_back(c);
  }
}

// A block per repetition of the point, seeded by the point's values and the repetition; an
// implicit baseline first where the matrix declares none.
void add_point_blocks(const Matrix& m,
                      const std::array<std::vector<std::uint64_t>, kAxisCount>& hashes,
                      const CellValues& cell, const PointModes& measured, bool implicit_baseline,
                      std::vector<PendingBlock>& pending, BlockModes& block_modes) {
  CellValues point = cell;
  point[kTrace] = kAbsent;
  std::uint64_t point_hash = m.seed;
  for (std::size_t a = 0; a < kTrace; ++a) {
    if (point[a] != kAbsent) point_hash = combine64(point_hash, hashes[a][point[a]]);
  }
  for (std::uint32_t r = 0; r < m.repetitions; ++r) {
    PendingBlock pb{};
    pb.block.point = point;
    pb.block.repetition = r;
    pb.block.seed = combine64(point_hash, r);
    pb.point_hash = point_hash;
    pb.modes_begin = static_cast<std::uint32_t>(block_modes.size());
    if (implicit_baseline) block_modes.emplace_back(TraceMode::baseline, kNoCell);
    for (std::size_t i = 0; i < measured.modes.size(); ++i) {
      block_modes.emplace_back(measured.modes[i], measured.cells[i]);
    }
    pb.block.run_count = static_cast<std::uint32_t>(block_modes.size() - pb.modes_begin);
    pending.push_back(pb);
  }
}

// Advances the odometer over the axes before trace (absent axes stay absent); false once every
// point has been visited.
bool next_point(CellValues& cell, const std::array<std::size_t, kAxisCount>& sizes) {
  for (std::size_t a = kTrace; a > 0;) {
    --a;
    if (cell[a] == kAbsent) continue;
    if (++cell[a] < sizes[a]) return true;
    cell[a] = 0;
  }
  return false;
}

// The execution order: blocks shuffled as wholes, then the modes ordered inside each block.
void order_runs(const Matrix& m, std::vector<PendingBlock>& pending, BlockModes& block_modes,
                Plan& plan) {
  if (m.ordering.shuffle_blocks) {
    SplitMix64 rng(combine64(m.ordering.seed, kBlockOrderSalt));
    stable_shuffle(std::span(pending), rng);
  }
  plan.blocks.reserve(pending.size());
  plan.runs.reserve(block_modes.size());
  for (auto& pb : pending) {
    auto first = block_modes.begin() + pb.modes_begin;
    std::span<std::pair<TraceMode, std::uint32_t>> these(first, first + pb.block.run_count);
    if (m.ordering.modes == ModeOrder::shuffled) {
      SplitMix64 rng(combine64(combine64(m.ordering.seed, kModeOrderSalt), pb.block.seed));
      stable_shuffle(these, rng);
    } else if (m.ordering.modes == ModeOrder::balanced) {
      balance_modes(these, pb.block.repetition,
                    combine64(combine64(m.ordering.seed, kModeOrderSalt), pb.point_hash));
    }
    pb.block.first_run = static_cast<std::uint32_t>(plan.runs.size());
    const auto block_index = static_cast<std::uint32_t>(plan.blocks.size());
    for (const auto& [mode, cell_index] : these) {
      plan.runs.push_back(Run{block_index, cell_index, mode, cell_index == kNoCell});
      if (cell_index == kNoCell) ++plan.counts.implicit_baselines;
    }
    plan.blocks.push_back(pb.block);
  }
}

}  // namespace

Plan make_plan(const Matrix& m, std::span<const OnlyFilter> filters, const HostResources& host,
               const PlanOptions& options) {
  Plan plan;
  plan.options = options;
  plan.matrix = std::make_shared<const Matrix>(m);
  plan.host = host;
  plan.filters.assign(filters.begin(), filters.end());

  const auto selected = selected_values(m, filters);
  const auto hashes = value_hashes(m);
  std::array<std::size_t, kAxisCount> sizes{};
  for (std::size_t a = 0; a < kAxisCount; ++a) {
    sizes[a] = std::max<std::size_t>(m.axes[a].labels.size(), 1);
  }
  const bool implicit_baseline = std::find(m.trace_modes.begin(), m.trace_modes.end(),
                                           TraceMode::baseline) == m.trace_modes.end();
  plan.counts.product = 1;
  for (auto s : sizes) plan.counts.product *= s;
  plan.cells.reserve(plan.counts.product);

  std::vector<PendingBlock> pending;
  BlockModes block_modes;
  PointModes measured;
  CellValues cell{};
  for (std::size_t a = 0; a < kAxisCount; ++a) cell[a] = m.axes[a].labels.empty() ? kAbsent : 0;
  do {
    add_point_cells(m, host, options, selected, sizes[kTrace], cell, plan, measured);
    if (!measured.modes.empty()) {
      add_point_blocks(m, hashes, cell, measured, implicit_baseline, pending, block_modes);
    }
  } while (next_point(cell, sizes));
  plan.counts.cells = plan.cells.size();

  order_runs(m, pending, block_modes, plan);
  plan.counts.blocks = plan.blocks.size();
  plan.counts.runs = plan.runs.size();
  plan.estimate = detail::make_estimate(m, plan.runs, options);
  plan.axes = detail::axis_states(plan, implicit_baseline);
  return plan;
}

}  // namespace jbench
