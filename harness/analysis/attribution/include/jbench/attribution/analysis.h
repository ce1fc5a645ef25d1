// From accounts to answers (docs/attribution.md): per cell and trace mode, each part's share of
// the measure phase with a bootstrap interval over the repetitions, how often the top-ranked cost
// stays on top, the observer's own cost beside it, the smallest change the baseline noise lets one
// see, and the dominant-cost sentence; the scaling along `workers`; the startup tables. Pure.
//
//   JudgedAccounts b = read_bundle_accounts(dir, {});
//   AttributionReport r = analyse(*b.accounts, b.validity);
//   std::cout << attribution_to_text(r);     // attribution_output.h
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "jbench/attribution/account.h"
#include "jbench/attribution/bundle_accounts.h"
#include "jbench/overhead_report/overhead.h"

namespace jbench::attribution {

inline constexpr std::size_t kResamples = 2000;

struct Estimate {
  double value = 0;
  std::optional<double> low;  // 95% percentile bootstrap over the repetitions; unset with one
  std::optional<double> high;
};

struct PartRow {
  std::string kind;  // syscall | gc | span | rest
  CallKey key;       // for syscall
  std::string span;  // for span: its name (name:plan class); the time in it outside the others
  std::string label;
  Estimate share;      // of the measure phase's workload thread-time
  Estimate ns_per_op;  // per committed transaction (or batch)
  std::optional<double> count_per_op;
  bool attributable = true;  // not smaller than the observer's own cost
  std::optional<int> rank;   // among syscall and GC parts
};

struct SpanRow {
  std::string name;
  std::string plan_class;
  double count_per_op = 0;
  double total_share = 0;
  double self_share = 0;
  double syscall_share = 0;
  double gc_share = 0;
};

// One worker's waits that ended with a wake-up, by what it waited in and who woke it: their share
// of that worker's time (pooled over the repetitions) and their cost per operation of the cell.
struct WaitRow {
  std::uint32_t worker = 0;
  std::string what;   // the part's label: "flock LOCK_EX on db.lock", "blocked in futex, ..."
  std::string waker;  // "worker 1", "an interrupt (device, timer or softirq)", ...
  Estimate share;
  Estimate ns_per_op;
};

// On-CPU samples by the function they landed in (the leaf frame) and the span innermost then:
// their share of the cell's samples, and the CPU time they stand for per operation (each sample
// one period of the sampling clock).
struct SampleRow {
  std::string span;      // "" outside every span
  std::string function;  // the leaf frame, named
  Estimate share;
  std::optional<double> ns_per_op;
};

struct CpuSamples {
  double hz = 0;
  double samples_per_run = 0;
  std::vector<SampleRow> rows;  // by share
};

// A system call the tracer counts but does not follow as a call (syscall:other), by name: calls
// and time per operation, and its time as a share of the workload threads' time. Per harness
// phase (a call counts in the phase it entered), beside the parts: it overlaps them.
struct OtherSyscallRow {
  std::string name;  // the kernel's name: "mmap", "futex", "syscall 335" without a table
  double calls_per_op = 0;
  double errors_per_op = 0;
  Estimate ns_per_op;
  Estimate share;
};

// One run's measure phase over time, per incarnation (full detail): in each of `bins` equal bins
// the share of bin × threads its workload threads spent blocked off the CPU, runnable, and in
// traced calls; the rest of the bin they were on a CPU outside every call.
struct TimelineRow {
  std::uint32_t worker = 0;
  std::uint32_t threads = 1;
  std::vector<double> blocked;
  std::vector<double> runnable;
  std::vector<double> in_calls;
};

struct Timeline {
  std::string run;
  double window_ns = 0;  // the first incarnation's measure window
  std::vector<TimelineRow> incarnations;
};

struct Observer {
  std::string mode;
  std::optional<double> median_ratio;
  std::optional<double> ci_low;
  std::optional<double> ci_high;
  std::size_t pairs = 0;
  std::optional<double> observer_share;  // 1 - 1 / ratio: the time the observer itself took
  double writer_thread_share = 0;        // the bridge writer thread's traced calls
};

struct DetectableEffect {
  std::optional<double> fraction_of_wall;
  std::size_t baseline_runs = 0;
  std::optional<double> baseline_cv;
};

struct CellAttribution {
  std::string cell;
  std::vector<std::pair<std::string, std::string>> values;
  std::string mode;
  std::size_t repetitions = 0;
  std::string phase = "measure";
  std::size_t incarnations = 0;  // per run
  std::uint32_t threads = 1;     // workload threads per incarnation
  double wall_ns_per_run = 0;
  double operations_per_run = 0;
  double statements_per_run = 0;  // the statements (operations) those transactions ran
  std::string operation_unit = "committed transaction";
  bool syscalls_attributed = false;
  std::vector<NotAttributed> not_attributed;
  std::vector<PartRow> parts;  // by share, the rest last
  std::optional<std::string> top_label;
  std::optional<double> top_stays_on_top;  // fraction of resamples; unset with one repetition
  Observer observer;
  std::optional<double> cpu_share;  // the processes' on-CPU time, beside the parts (it overlaps)
  // The kernel's scheduler accounting (cpu collector), beside the parts: wall × threads split into
  // on-CPU, runnable (ready, waiting for a CPU) and blocked (neither). None where unknown.
  struct SchedulerSplit {
    Estimate on_cpu;
    Estimate runnable;
    Estimate blocked;
    double on_cpu_ns_per_op = 0;  // the same, per operation (what the scaling compares)
    double runnable_ns_per_op = 0;
    double blocked_ns_per_op = 0;
  };
  std::optional<SchedulerSplit> scheduler;
  // Light: the protocol's waits at the harness phase's edges, taken out of `read`, in no share.
  std::optional<double> protocol_wait_share;
  DetectableEffect detectable;
  std::optional<std::string> other_mode;
  std::optional<bool> modes_agree;
  std::string agreement_note;
  std::string sentence;
  std::vector<SpanRow> spans;
  std::vector<WaitRow> wait_for;                // full detail with the compiled tracer; by share
  std::optional<CpuSamples> cpu_samples;        // full detail with the compiled tracer's sampler
  std::vector<OtherSyscallRow> other_syscalls;  // the compiled tracer, either detail; by time
  std::optional<Timeline> timeline;             // full detail: the cell's first run
  std::vector<std::string> notes;
};

struct ScalingPoint {
  std::uint64_t workers = 0;
  std::size_t runs = 0;
  Estimate throughput;  // baseline runs' median with its interval
  std::optional<Estimate> efficiency;
};

struct GrowingCost {
  std::string label;
  double ns_per_op_first = 0;
  double ns_per_op_last = 0;
  double growth = 0;
};

struct ScalingGroup {
  std::string group;  // the cell without its workers value
  std::vector<ScalingPoint> points;
  std::string cost_mode;  // the mode the per-operation costs come from
  std::vector<GrowingCost> growing;
  std::string sentence;
};

struct StartupTable {
  std::string run;
  std::uint32_t worker = 0;
  std::int64_t pid = 0;
  std::vector<std::pair<std::string, std::uint64_t>> steps;
  std::uint64_t startup_ns = 0;  // the startup phase's wall time
  std::vector<StartupCall> calls;
  std::uint64_t calls_cut = 0;
};

// One incarnation's phase as the account split it: the parts sum to thread_ns exactly.
struct PhaseRow {
  std::string phase;
  std::uint64_t wall_ns = 0;
  std::uint32_t threads = 1;
  std::uint64_t syscall_ns = 0;
  std::uint64_t gc_ns = 0;
  std::uint64_t span_ns = 0;  // full: in spans outside the traced calls and GC pauses
  std::uint64_t rest_ns = 0;
  std::uint64_t writer_ns = 0;  // the bridge writer thread's traced calls, in no part
  std::uint64_t clamped_ns = 0;
  std::uint64_t protocol_ns = 0;  // light: taken out of read, in no part
  std::optional<std::uint64_t> cpu_ns;
  std::uint64_t operations = 0;
  std::vector<std::pair<std::string, std::uint64_t>> top_calls;  // the largest, by label
};

struct IncarnationRow {
  std::string run;
  std::string mode;
  std::uint32_t worker = 0;
  std::int64_t pid = 0;
  std::vector<PhaseRow> phases;
};

inline constexpr std::size_t kTopCallsPerPhase = 5;

// The first look (docs/report.md, "Overview"): per cell and traced mode, in the cells' order, the
// largest part that names something, what no part names (the rest), and what observing cost.
struct OverviewRow {
  std::string cell;
  std::string mode;
  std::size_t repetitions = 0;
  std::string largest;  // the largest part's label; "" when the rest is the only part
  Estimate largest_share;
  Estimate rest_share;
  bool rest_over_limit = false;  // more rest than the sentence leaves unsaid (kRestWorthSaying)
  // The paired baseline's throughput over this mode's; unset without pairs.
  std::optional<Estimate> cost;
};

struct AttributionReport {
  std::string bundle;
  std::string bundle_status;  // the manifest's: complete, interrupted, ...
  bool valid = true;
  std::vector<std::string> invalid_because;
  std::vector<CellAttribution> cells;
  std::vector<OverviewRow> overview;  // one per cell, in the same order
  std::vector<ScalingGroup> scaling;
  std::vector<StartupTable> startup;
  std::vector<IncarnationRow> incarnations;  // every accounted run's incarnations
  overhead_report::OverheadReport overhead;
  std::vector<overhead_report::CountedCell>
      counted;  // the counted cells, as read (report/counted.h)
  std::vector<overhead_report::ProjectCounterRow> project_counters;  // report/project_counters.h
  std::vector<std::string> warnings;
  std::uint64_t syscall_records = 0;
};

AttributionReport analyse(const BundleAccounts& bundle, const BundleValidity& validity);

}  // namespace jbench::attribution
