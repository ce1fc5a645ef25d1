// runs/<id>/summary.json as a type: the figures the readers of bundles take from a run's summary
// (the cells table, the counted cells, the project's counters, compare's metrics, the attribution's
// cpu and syscall totals), read once per run by one function that checks each field it takes. The
// validator recomputes a summary from the run's raw records, so these figures are as good as the
// bundle; manifests/summary.schema.json says the rest of the document's shape, and a test holds
// every field read here to it (tests/model/).
//
//   auto summary = read_summary(json, "runs/r1/summary.json");
//   if (!summary) fail(summary.error().message);  // ".../summary.json /measure/operations: ..."
//   for (const auto& incarnation : summary->cpu) {     // each incarnation's phases
//     const auto& measure = incarnation.measure();
//     if (measure && measure->cpu_ns) total += *measure->cpu_ns;
//   }
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "jbench/collectors/api/phases.h"
#include "jbench/common/result.h"
#include "jbench/model/fields.h"

namespace jbench::model {

// The index of the measure phase among the run's phases (collectors::kPhases, whose names the
// collectors' summaries use).
inline constexpr std::size_t kMeasurePhase = 2;
static_assert(collectors::kPhases[kMeasurePhase] == "measure");

// A collector's figures of one incarnation (collectors.<name>.incarnations[]), phase by phase in
// collectors::kPhases' order (nullopt: none for that phase, as for an incarnation that ended
// before it). The process as run.json's cohort names it; 0 where the summary does not say.
template <typename Figures>
using PhaseFigures = std::array<std::optional<Figures>, collectors::kPhases.size()>;
template <typename Figures>
struct IncarnationPhases {
  std::int64_t pid = 0;
  std::uint64_t start_time_ticks = 0;
  PhaseFigures<Figures> phases;
  const std::optional<Figures>& measure() const { return phases[kMeasurePhase]; }
};

// collectors.cpu: the kernel's accounting of one phase. A figure the reading lacks (null:
// /proc/<pid>/io or the scheduler's times unreadable; absent: a reading from before it was
// taken) is nullopt.
struct CpuPhase {
  std::optional<double> cpu_ns;
  std::optional<double> voluntary_switches;
  std::optional<double> involuntary_switches;
  std::optional<double> minor_faults;
  std::optional<double> major_faults;
  std::optional<double> read_chars;
  std::optional<double> written_chars;
  std::optional<double> on_cpu_ns;    // the scheduler's time on a CPU
  std::optional<double> runnable_ns;  // and waiting for one
};

// A request of an ioctl, fcntl or flock call by name, or an untraced call's name under
// "syscall:other". `total_ns` is absent where the backend does not keep it apart per request.
struct SyscallRequest {
  std::string name;
  std::uint64_t count = 0;
  std::uint64_t errors = 0;
  std::optional<std::uint64_t> total_ns;
};

// One system call's totals in a phase (syscall-summary.schema.json, `call`), or one of the
// tracer's own entries beside the calls: the off-CPU intervals ("off-cpu:blocked",
// "off-cpu:runnable") and every other call ("syscall:other", by name in its requests).
struct SyscallCall {
  std::string name;
  std::uint64_t count = 0;
  std::uint64_t errors = 0;
  std::uint64_t total_ns = 0;
  std::uint64_t max_ns = 0;
  std::vector<SyscallRequest> requests;
};

// collectors.syscall of one incarnation: each phase's calls in the summary's order, those of the
// trace bridge's writer thread apart where the backend told them apart.
struct SyscallIncarnation : IncarnationPhases<std::vector<SyscallCall>> {
  PhaseFigures<std::vector<SyscallCall>> bridge_writer_phases;
};

struct SyscallSummary {
  std::string thread_roles;  // "told_apart", "mixed"; empty where not given
  std::vector<SyscallIncarnation> incarnations;
};

// collectors.instructions, per incarnation.
struct CountedMeasure {
  std::optional<double> instructions;
  std::optional<double> allocations;  // absent from records made before they were counted
};

// collectors.instructions: what counted a counted run, and its measure phase's totals.
struct CountedTotals {
  std::string source;  // "callgrind", "perf"; empty where not given
  std::optional<std::uint64_t> measure_instructions;
  // Absent where some record did not count allocation calls (older records, perf).
  std::optional<std::uint64_t> measure_allocations;
  std::vector<IncarnationPhases<CountedMeasure>> incarnations;
};

// collectors.gc.cells[]: one incarnation's collections in one phase.
struct GcCell {
  std::string phase;
  double collections = 0;
  double pause_total_ns = 0;
};

// collectors.counters.cells[]: one jb_counter's records in one incarnation and phase.
struct CounterCell {
  std::string phase;
  std::string name;
  double sum = 0;
};

struct Summary {
  // The run's own figures; absent in a document that lacks them (a hand-made one).
  std::optional<double> throughput_ops_per_s;
  std::optional<std::uint64_t> p50_ns;  // latency of all operations
  std::optional<std::uint64_t> p99_ns;
  std::optional<std::uint64_t> workers;  // how many workers reported
  std::optional<std::uint64_t> starved;  // of them, how many counted no operation
  std::optional<double> jain_fairness_index;
  // measure: the measured operations, the engine's own count of its work (vm_steps) and the
  // workers' own counters (result.counters), summed over the workers.
  std::optional<double> operations;
  std::optional<double> vm_steps;
  std::vector<std::pair<std::string, double>> own_counters;
  std::optional<CountedTotals> counted;          // a counted run's instructions collector
  std::vector<CounterCell> counter_cells;        // the trace bridge's jb_counter records
  std::vector<IncarnationPhases<CpuPhase>> cpu;  // empty without a cpu collector's summary
  std::optional<SyscallSummary> syscall;         // a syscall collector's summary
  std::vector<GcCell> gc_cells;
};

// Reads one parsed summary.json; `file` names it in errors, `log` collects the pointers read.
Result<Summary> read_summary(const nlohmann::json& doc, const std::string& file,
                             FieldLog* log = nullptr);

}  // namespace jbench::model
