// The metrics of a run, read from its summary (the validator recomputes it from the raw files,
// so it is the run's evidence), counters only from the collectors that ran cleanly.
#include "jbench/compare/metrics.h"

#include <array>

#include "jbench/run_summaries/project_counters.h"

namespace jbench::compare {

namespace {

// The run's own figures, the instructions and allocation calls of a counted run, the workload's
// own count of its engine's work, then the counters of the cpu, syscall and gc collectors.
constexpr std::array<MetricInfo, 15> kMetrics = {{
    {"throughput_ops_per_s", true},
    {"p50_ns", false},
    {"p99_ns", false},
    {"instructions_per_op", false, true},
    {"allocations_per_op", false, true},
    {"vm_steps_per_op", false},
    {"cpu_ns_per_op", false},
    {"context_switches_per_op", false},
    {"page_faults_per_op", false},
    {"bytes_read_per_op", false},
    {"bytes_written_per_op", false},
    {"traced_syscalls_per_op", false},
    {"fsyncs_per_op", false},
    {"gc_collections_per_op", false},
    {"gc_pause_ns_per_op", false},
}};

// What an incarnation that lacks the figure means for the sum.
enum class Missing {
  skipped,  // it adds nothing: the sum is of those that have it
  unknown,  // the whole sum is unknown (an incarnation without a measure phase takes no part):
            // one whose /proc/<pid>/io could not be read is never a part passed off as the whole
};

// The sum over the run's incarnations of one measure-phase figure, or nothing when none has it.
// `read` is given each incarnation's measure phase, nullopt for one without.
template <typename Incarnations, typename Read>
std::optional<double> over_incarnations(const Incarnations& incarnations, Read read,
                                        Missing missing = Missing::skipped) {
  std::optional<double> sum;
  for (const auto& incarnation : incarnations) {
    const auto& measure = incarnation.measure();
    if (missing == Missing::unknown && !measure) continue;
    const std::optional<double> v = read(measure);
    if (!v && missing == Missing::unknown) return std::nullopt;
    if (v) sum = sum.value_or(0) + *v;
  }
  return sum;
}

// A reader of one figure of a measure phase.
template <typename Phase>
auto figure(std::optional<double> Phase::*member) {
  return [member](const std::optional<Phase>& m) { return m ? (*m).*member : std::nullopt; };
}

}  // namespace

std::span<const MetricInfo> all_metrics() { return kMetrics; }

bool is_call_count_metric(std::string_view metric) {
  constexpr std::string_view prefix = "syscall:", suffix = "_per_op";
  return metric.starts_with(prefix) && metric.ends_with(suffix) &&
         metric.size() > prefix.size() + suffix.size();
}

std::vector<MetricInfo> metrics_with_named_counters(const std::set<std::string>& seen) {
  std::vector<MetricInfo> out(kMetrics.begin(), kMetrics.end());
  for (const std::string& name : seen) {
    if (is_call_count_metric(name)) out.push_back({name, false});
  }
  for (const std::string& name : seen) {
    if (run_summaries::is_project_counter(name)) out.push_back({name, false});
  }
  return out;
}

bool higher_is_better(std::string_view metric) {
  for (const MetricInfo& m : kMetrics) {
    if (m.name == metric) return m.higher_is_better;
  }
  return !(metric.ends_with("_ns") || metric.ends_with("_per_op"));
}

bool is_counted_metric(std::string_view metric) {
  for (const MetricInfo& m : kMetrics) {
    if (m.name == metric) return m.counted;
  }
  return false;
}

namespace {

// Adds a total as a figure per measured operation, when there is one.
class PerOp {
 public:
  PerOp(std::map<std::string, double>& out, double ops) : out_(out), ops_(ops) {}
  void operator()(const std::string& metric, std::optional<double> total) const {
    if (total) out_[metric] = *total / ops_;
  }

 private:
  std::map<std::string, double>& out_;
  double ops_;
};

void cpu_metrics(const std::vector<model::IncarnationPhases<model::CpuPhase>>& cpu,
                 const PerOp& per_op) {
  using model::CpuPhase;
  per_op("cpu_ns_per_op", over_incarnations(cpu, figure(&CpuPhase::cpu_ns)));
  // The kernel's count of every time a worker's threads left the CPU, voluntarily (a wait) or
  // not (preempted): a count, but one the host's other work moves too.
  per_op("context_switches_per_op",
         over_incarnations(cpu, [](const std::optional<CpuPhase>& m) -> std::optional<double> {
           if (!m || !m->voluntary_switches || !m->involuntary_switches) return std::nullopt;
           return *m->voluntary_switches + *m->involuntary_switches;
         }));
  // What the program asked of the kernel's memory and files: counts the host's other work
  // hardly moves. Null in a reading (or absent, before they were read) gives no value.
  const auto faults = [](const std::optional<CpuPhase>& m) -> std::optional<double> {
    if (!m || !m->minor_faults || !m->major_faults) return std::nullopt;
    return *m->minor_faults + *m->major_faults;
  };
  per_op("page_faults_per_op", over_incarnations(cpu, faults, Missing::unknown));
  per_op("bytes_read_per_op",
         over_incarnations(cpu, figure(&CpuPhase::read_chars), Missing::unknown));
  per_op("bytes_written_per_op",
         over_incarnations(cpu, figure(&CpuPhase::written_chars), Missing::unknown));
}

using Calls = std::vector<model::SyscallCall>;

// The count of `call` in one measure phase; 0 where it made none (or had no measure phase).
double count_of(const std::optional<Calls>& m, std::string_view call) {
  if (!m) return 0;
  for (const model::SyscallCall& c : *m) {
    if (c.name == call) return static_cast<double>(c.count);
  }
  return 0;
}

void syscall_metrics(const std::vector<model::SyscallIncarnation>& syscall, const PerOp& per_op) {
  // A clean collector that saw no call still read every phase: its zero is measured. The
  // off-CPU intervals the tracer keeps beside the calls (off-cpu:blocked, off-cpu:runnable) are
  // not calls: how often a thread waits for a CPU is the host's doing, not the program's.
  std::map<std::string, double> by_call;
  per_op(kTracedSyscallsPerOp,
         over_incarnations(syscall, [&by_call](const std::optional<Calls>& m) {
           double n = 0;  // an incarnation without a measure phase made no call in it
           if (!m) return std::optional<double>(n);
           for (const model::SyscallCall& c : *m) {
             if (c.name.starts_with("off-cpu:")) continue;
             n += static_cast<double>(c.count);
             by_call[c.name] += static_cast<double>(c.count);
           }
           return std::optional<double>(n);
         }));
  // Each call the workers made, by name: a call a run did not make is its measured zero once
  // the comparison knows every call either side made (compare_side.h, complete_call_counts).
  for (const auto& [call, count] : by_call) per_op("syscall:" + call + "_per_op", count);
  per_op("fsyncs_per_op", over_incarnations(syscall, [](const std::optional<Calls>& m) {
           return std::optional<double>(count_of(m, "fsync") + count_of(m, "fdatasync"));
         }));
}

void gc_metrics(const std::vector<model::GcCell>& cells, const PerOp& per_op) {
  double collections = 0, pause = 0;
  for (const model::GcCell& cell : cells) {
    if (cell.phase != "measure") continue;
    collections += cell.collections;
    pause += cell.pause_total_ns;
  }
  per_op("gc_collections_per_op", collections);
  per_op("gc_pause_ns_per_op", pause);
}

}  // namespace

std::map<std::string, double> run_metrics(const model::Summary& summary,
                                          const std::set<std::string>& clean) {
  std::map<std::string, double> out;
  // A counted run's program ran inside the counting runtime: its times are the runtime's, never
  // the program's performance (docs/trace-modes.md, "counted").
  const bool counted = summary.counted.has_value();
  if (!counted) {
    if (summary.throughput_ops_per_s) out["throughput_ops_per_s"] = *summary.throughput_ops_per_s;
    if (summary.p50_ns) out["p50_ns"] = static_cast<double>(*summary.p50_ns);
    if (summary.p99_ns) out["p99_ns"] = static_cast<double>(*summary.p99_ns);
  }
  if (!summary.operations || *summary.operations <= 0) return out;  // no per-operation counter
  const PerOp per_op(out, *summary.operations);
  if (clean.count("instructions") && counted) {
    using model::CountedMeasure;
    const auto& incarnations = summary.counted->incarnations;
    per_op("instructions_per_op",
           over_incarnations(incarnations, figure(&CountedMeasure::instructions)));
    // Absent from records made before allocation calls were counted: unknown, never zero.
    per_op("allocations_per_op",
           over_incarnations(incarnations, figure(&CountedMeasure::allocations), Missing::unknown));
  }
  // The SQLite worker counts its statements' virtual-machine steps itself (docs/worker-protocol.md,
  // `vm_steps`): the engine's own accounting, in every trace mode, no collector involved.
  per_op("vm_steps_per_op", summary.vm_steps);
  // The project's own counters: a worker's result.counters, and its jb_counter calls.
  out.merge(run_summaries::project_counters_per_op(summary, clean.count("bridge") > 0));
  if (clean.count("cpu") && !counted) cpu_metrics(summary.cpu, per_op);
  if (clean.count("syscall") && summary.syscall) {
    syscall_metrics(summary.syscall->incarnations, per_op);
  }
  if (clean.count("gc")) gc_metrics(summary.gc_cells, per_op);
  return out;
}

}  // namespace jbench::compare
