// The plan: which runs a matrix expands into, in which order, with which seeds — a pure function
// of (matrix, --only filters, host resources). Same inputs, same plan, on any machine.
//
//   auto filters = parse_only_filters({"workers=1,2"}, matrix);   // check filters.errors
//   Plan plan = make_plan(matrix, filters.filters, HostResources{2, 24576});
//
// Vocabulary (docs/matrix.md): a *cell* is one point of the product of all axes; a *point* is
// a cell without its trace mode; a *block* is one repetition of one point with all its trace
// modes, which run back to back in a seeded order so that each traced run has its untraced
// baseline next to it under the same conditions. Every run of a block shares the block's seed:
// the trace mode is deliberately not part of it, so A/B modes execute the identical workload.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "jbench/common/host_resources.h"
#include "jbench/matrix/matrix.h"

namespace jbench {

// --only AXIS=V1,V2: restrict what runs now; the rest stays in the plan as `planned`.
struct OnlyFilter {
  Axis axis;
  std::vector<std::uint16_t> values;  // indices into the axis's labels
};
struct ParsedFilters {
  std::vector<OnlyFilter> filters;
  std::vector<std::string> errors;  // one line each; non-empty means bad usage (exit 2)
};
ParsedFilters parse_only_filters(std::span<const std::string> args, const Matrix& matrix);

// The state every axis value and every cell ends in (DESIGN.md: nothing is silently dropped).
enum class PlanState : std::uint8_t { measured, planned, skipped, delegated };
std::string_view plan_state_name(PlanState state);

// Why a cell is not measured.
enum class CellReason : std::uint8_t {
  none,
  only_filter,       // planned: not selected by --only
  max_workers,       // skipped: workers over limits.max_workers
  host_cores,        // skipped: workers over limits.workers_per_core x host cores
  host_memory,       // skipped: workers x limits.memory_per_worker_mib over host memory
  mode_unavailable,  // planned: this jbench cannot execute the cell's trace mode (yet)
  other_shard,       // delegated: every repetition of the cell runs on another shard
};

inline constexpr std::uint16_t kAbsent = std::numeric_limits<std::uint16_t>::max();
using CellValues = std::array<std::uint16_t, kAxisCount>;  // label index per axis, or kAbsent

struct Cell {
  CellValues values;
  PlanState state;
  CellReason reason;
  std::uint32_t owner = 0;  // other_shard: the shard that runs its first repetition
};

struct Block {
  CellValues point;          // values[trace] == kAbsent
  std::uint32_t repetition;  // 0-based
  std::uint64_t seed;        // the workload seed of every run in the block
  std::uint32_t first_run;   // index of its first run in Plan::runs
  std::uint32_t run_count;
};

inline constexpr std::uint32_t kNoCell = std::numeric_limits<std::uint32_t>::max();

struct Run {
  std::uint32_t block;
  std::uint32_t cell;  // index into Plan::cells, or kNoCell for an implicit baseline
  TraceMode trace;
  bool implicit;  // a baseline the trace axis did not declare, added for pairing
};

struct ValueStatus {
  std::string label;
  PlanState state;
  std::string reason;  // empty for measured values that need no explanation
  bool implicit = false;
  std::uint64_t cells = 0;  // cells with this value, in any state
  std::uint64_t runs = 0;   // runs with this value
};

struct AxisStatus {
  Axis axis;
  bool declared;
  std::vector<ValueStatus> values;
};

struct Estimate {
  std::uint64_t runs = 0;
  std::optional<std::uint64_t> per_run_ms;  // nullopt when a phase counts operations
  std::uint64_t overhead_per_run_ms = 0;    // allowance for start-up and teardown
  std::uint64_t bound_ms = 0;               // runs x limits.run_timeout_s
  std::uint64_t traced_runs = 0;            // light and full runs: each attaches a tracer
  std::uint64_t attach_per_traced_run_ms = 0;
  std::string attach_source;  // where attach_per_traced_run_ms comes from
  // What a light or full run costs after its phases (summaries; full: a record per call written
  // and checked), beyond a baseline run's allowance.
  std::uint64_t light_runs = 0;
  std::uint64_t full_runs = 0;
  std::uint64_t after_light_run_ms = 0;
  std::uint64_t after_full_run_ms = 0;
  std::string after_run_source;
  std::optional<std::uint64_t> total_ms() const {
    if (!per_run_ms) return std::nullopt;
    return runs * *per_run_ms + traced_runs * attach_per_traced_run_ms +
           light_runs * after_light_run_ms + full_runs * after_full_run_ms;
  }
};

struct PlanCounts {
  std::uint64_t product = 0;                      // cells of the full product, before exclusions
  std::uint64_t excluded = 0;                     // removed by exclude rules
  std::uint64_t cells = 0;                        // product - excluded
  std::array<std::uint64_t, 4> cells_by_state{};  // indexed by PlanState
  std::uint64_t blocks = 0;
  std::uint64_t runs = 0;
  std::uint64_t implicit_baselines = 0;
};

// What the executor can do: a trace mode with a reason here is kept in the plan as `planned`
// with that reason, never run under another label.
struct PlanOptions {
  std::array<std::string, kTraceValues.size()>
      unavailable_trace_modes;  // by TraceMode; empty = can run
  // What attaching the kernel-side tracer costs each light or full run (outside its phases),
  // and where that figure comes from; unset = kTracerAttachMs, an assumption said as such.
  std::optional<std::uint64_t> tracer_attach_ms;
  std::string tracer_attach_source;
};

// One of N shards of a plan (shard.h): shards are numbered 0 .. count-1, as Slurm array task ids
// and Kubernetes completion indexes count.
struct ShardSpec {
  std::uint32_t index = 0;
  std::uint32_t count = 1;
};

struct Plan {
  std::shared_ptr<const Matrix> matrix;  // a copy of the matrix it was made from
  HostResources host;
  PlanOptions options;
  std::vector<OnlyFilter> filters;
  std::vector<Cell> cells;    // canonical order (axes nested in Axis order, trace innermost)
  std::vector<Block> blocks;  // execution order
  std::vector<Run> runs;      // execution order: runs[i] is the i-th run to execute
  std::vector<AxisStatus> axes;
  PlanCounts counts;
  Estimate estimate;
  // Set on a shard's plan (shard_plan): its blocks are the shard's share of the whole plan's,
  // whose counts are kept beside it.
  std::optional<ShardSpec> shard;
  std::uint64_t whole_plan_blocks = 0, whole_plan_runs = 0;
};

// Allowance per run for starting processes, registering them and tearing down.
inline constexpr std::uint64_t kRunOverheadMs = 1000;
// Assumed attach cost of a light or full run when nothing measured is at hand: the compiled
// tracer loads once per session (about 50 ms) and is attached and scoped to each run in under 10 ms
// (docs/collectors/syscall.md). Where it cannot load, bpftrace compiles and attaches before each
// traced run instead (4-8 s on a 2-core host), which this figure does not foresee.
inline constexpr std::uint64_t kTracerAttachMs = 0;
// Assumed cost after the phases of a light and of a full run, beyond a baseline run's: what the
// SQLite main job's runs (1 and 4 workers) took on a 2-core host. Full writes and checks a record
// per call, so it grows with the calls a run makes.
inline constexpr std::uint64_t kAfterLightRunMs = 400;
inline constexpr std::uint64_t kAfterFullRunMs = 2000;

Plan make_plan(const Matrix& matrix, std::span<const OnlyFilter> filters, const HostResources& host,
               const PlanOptions& options = {});

// Ids are stable across orderings: they name the values, not the position.
// A run id reads like "w8.cold.mixed.above.full.r1".
std::string point_id(const Matrix& matrix, const CellValues& values);
// The run's cell: its point and trace mode, "w8.cold.mixed.above.full" (its run id less ".r<n>").
std::string cell_id(const Plan& plan, const Run& run);
std::string run_id(const Plan& plan, const Run& run);
std::string describe_reason(const Plan& plan, const Cell& cell);

// The parameters a run of this point is sent, in its kind's order: the workload's values, and
// for a parameter an axis sweeps, the point's value on that axis.
std::vector<Param> point_params(const Matrix& m, const CellValues& point);

}  // namespace jbench
