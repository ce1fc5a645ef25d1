// The metrics of a run, read from its summary (the validator recomputes it from the raw files,
// so it is the run's evidence), counters only from the collectors that ran cleanly.
#include "jbench/compare/metrics.h"

#include <array>

#include "jbench/bundle/json_file.h"
#include "jbench/run_summaries/project_counters.h"

namespace jbench::compare {

namespace {

using Json = nlohmann::json;

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

std::optional<double> number(const Json& j) {
  if (j.is_number()) return j.get<double>();
  if (auto d = decimal_value(j)) return static_cast<double>(*d);
  return std::nullopt;
}

const Json& member(const Json& j, const char* key) {
  static const Json none;
  if (!j.is_object()) return none;
  auto it = j.find(key);
  return it == j.end() ? none : *it;
}

// What an incarnation that lacks the figure means for the sum.
enum class Missing {
  skipped,  // it adds nothing: the sum is of those that have it
  unknown,  // the whole sum is unknown (an incarnation without a measure phase takes no part):
            // one whose /proc/<pid>/io could not be read is never a part passed off as the whole
};

// The sum over the run's incarnations of one measure-phase figure, or nothing when none has it.
template <typename Read>
std::optional<double> over_incarnations(const Json& incarnations, Read read,
                                        Missing missing = Missing::skipped) {
  std::optional<double> sum;
  for (const Json& inc : incarnations) {
    const Json& measure = member(member(inc, "phases"), "measure");
    if (missing == Missing::unknown && measure.is_null()) continue;
    const auto v = read(measure);
    if (!v && missing == Missing::unknown) return std::nullopt;
    if (v) sum = sum.value_or(0) + *v;
  }
  return sum;
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

void cpu_metrics(const Json& cpu, const PerOp& per_op) {
  const Json& incarnations = member(cpu, "incarnations");
  per_op("cpu_ns_per_op", over_incarnations(incarnations, [](const Json& m) {
           return number(member(m, "cpu_ns"));
         }));
  // The kernel's count of every time a worker's threads left the CPU, voluntarily (a wait) or
  // not (preempted): a count, but one the host's other work moves too.
  per_op("context_switches_per_op", over_incarnations(incarnations, [](const Json& m) {
           const auto voluntary = number(member(m, "voluntary_switches"));
           const auto involuntary = number(member(m, "involuntary_switches"));
           if (!voluntary || !involuntary) return std::optional<double>();
           return std::optional<double>(*voluntary + *involuntary);
         }));
  // What the program asked of the kernel's memory and files: counts the host's other work
  // hardly moves. Null in a reading (or absent, before they were read) gives no value.
  const auto faults = [](const Json& m) {
    const auto minor = number(member(m, "minor_faults"));
    const auto major = number(member(m, "major_faults"));
    if (!minor || !major) return std::optional<double>();
    return std::optional<double>(*minor + *major);
  };
  const auto field = [](const char* key) {
    return [key](const Json& m) { return number(member(m, key)); };
  };
  per_op("page_faults_per_op", over_incarnations(incarnations, faults, Missing::unknown));
  per_op("bytes_read_per_op",
         over_incarnations(incarnations, field("read_chars"), Missing::unknown));
  per_op("bytes_written_per_op",
         over_incarnations(incarnations, field("written_chars"), Missing::unknown));
}

void syscall_metrics(const Json& syscall, const PerOp& per_op) {
  const Json& incarnations = member(syscall, "incarnations");
  // A clean collector that saw no call still read every phase: its zero is measured. The
  // off-CPU intervals the tracer keeps beside the calls (off-cpu:blocked, off-cpu:runnable) are
  // not calls: how often a thread waits for a CPU is the host's doing, not the program's.
  std::map<std::string, double> by_call;
  per_op(kTracedSyscallsPerOp, over_incarnations(incarnations, [&by_call](const Json& m) {
           double n = 0;
           if (m.is_object()) {
             for (const auto& [call, figures] : m.items()) {
               if (call.starts_with("off-cpu:")) continue;
               const double count = number(member(figures, "count")).value_or(0);
               n += count;
               by_call[call] += count;
             }
           }
           return std::optional<double>(n);
         }));
  // Each call the workers made, by name: a call a run did not make is its measured zero once
  // the comparison knows every call either side made (compare_side.h, complete_call_counts).
  for (const auto& [call, count] : by_call) per_op("syscall:" + call + "_per_op", count);
  per_op(
      "fsyncs_per_op", over_incarnations(incarnations, [](const Json& m) {
        return std::optional<double>(number(member(member(m, "fsync"), "count")).value_or(0) +
                                     number(member(member(m, "fdatasync"), "count")).value_or(0));
      }));
}

void gc_metrics(const Json& gc, const PerOp& per_op) {
  double collections = 0, pause = 0;
  for (const Json& cell : member(gc, "cells")) {
    if (member(cell, "phase") != "measure") continue;
    collections += number(member(cell, "collections")).value_or(0);
    pause += number(member(cell, "pause_total_ns")).value_or(0);
  }
  per_op("gc_collections_per_op", collections);
  per_op("gc_pause_ns_per_op", pause);
}

}  // namespace

std::map<std::string, double> run_metrics(const Json& summary, const std::set<std::string>& clean) {
  std::map<std::string, double> out;
  const Json& collectors = member(summary, "collectors");
  // A counted run's program ran inside the counting runtime: its times are the runtime's, never
  // the program's performance (docs/trace-modes.md, "counted").
  const bool counted = member(collectors, "instructions").is_object();
  if (!counted) {
    if (auto v = number(member(summary, "throughput_ops_per_s"))) out["throughput_ops_per_s"] = *v;
    const Json& all = member(member(summary, "latency"), "all_operations");
    for (const char* key : {"p50_ns", "p99_ns"}) {
      if (auto v = number(member(all, key))) out[key] = *v;
    }
  }
  const auto ops = number(member(member(summary, "measure"), "operations"));
  if (!ops || *ops <= 0) return out;  // nothing to divide by: no per-operation counter
  const PerOp per_op(out, *ops);
  if (clean.count("instructions")) {
    const Json& counted_incarnations = member(member(collectors, "instructions"), "incarnations");
    per_op("instructions_per_op", over_incarnations(counted_incarnations, [](const Json& m) {
             return number(member(m, "instructions"));
           }));
    // Absent from records made before allocation calls were counted: unknown, never zero.
    per_op("allocations_per_op",
           over_incarnations(
               counted_incarnations, [](const Json& m) { return number(member(m, "allocations")); },
               Missing::unknown));
  }
  // The SQLite worker counts its statements' virtual-machine steps itself (docs/worker-protocol.md,
  // `vm_steps`): the engine's own accounting, in every trace mode, no collector involved.
  per_op("vm_steps_per_op", number(member(member(summary, "measure"), "vm_steps")));
  // The project's own counters: a worker's result.counters, and its jb_counter calls.
  if (const auto typed = model::read_summary(summary, "summary.json")) {
    out.merge(run_summaries::project_counters_per_op(*typed, clean.count("bridge") > 0));
  }
  if (clean.count("cpu") && !counted) cpu_metrics(member(collectors, "cpu"), per_op);
  if (clean.count("syscall")) syscall_metrics(member(collectors, "syscall"), per_op);
  if (clean.count("gc")) gc_metrics(member(collectors, "gc"), per_op);
  return out;
}

}  // namespace jbench::compare
