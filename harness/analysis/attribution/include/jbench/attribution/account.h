// The cost account of one run: per worker incarnation and phase, the workload's time split into
// non-overlapping parts (docs/attribution.md). Pure: it is fed facts read from a bundle
// (bundle_accounts.h does the reading) and computes; it never touches a file.
//
//   AccountBuilder b(run, windows);                    // who ran, each one's phase windows
//   b.add_span(...); b.add_gc(...); b.seal_spans();    // the bridge's records, then
//   b.add_call(call);                                  // every full-detail syscall record, or
//   b.add_totals(...);                                 // light totals
//   RunAccount account = b.finish();
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "jbench/collectors/api/phases.h"
#include "jbench/common/incarnation_id.h"
#include "jbench/common/run_status.h"
#include "jbench/common/trace_mode.h"

namespace jbench::attribution {

enum class Phase : std::uint8_t { startup, warmup, measure, teardown };
// Phase p is named collectors::kPhases[p].
inline constexpr std::size_t kPhases = collectors::kPhases.size();
std::optional<Phase> phase_named(std::string_view name);

// [begin, end) in CLOCK_MONOTONIC ns, one per phase; contiguous (docs/attribution.md).
struct PhaseWindows {
  std::array<std::uint64_t, kPhases> begin{};
  std::array<std::uint64_t, kPhases> end{};
  std::uint64_t wall(Phase p) const;
};

// A traced call's key in the account: the call, the file as its path (empty: unknown, as in
// light detail), and its fcntl/ioctl request (empty: none).
// The compiled tracer's waits off the CPU outside traced calls, which the raw files carry as calls
// of their own (docs/collectors/syscall.md, "Off the CPU").
inline constexpr std::string_view kOffCpuBlocked = "off-cpu:blocked";
inline constexpr std::string_view kOffCpuRunnable = "off-cpu:runnable";
inline bool is_off_cpu(std::string_view call) {
  return call == kOffCpuBlocked || call == kOffCpuRunnable;
}
// The compiled tracer's totals of every other system call, by name in its requests: beside the
// parts (their time overlaps the off-CPU waits and the spans' CPU time), never one of them.
inline constexpr std::string_view kOtherSyscalls = "syscall:other";

// An untraced system call's totals in a phase (every call entered in the harness phase).
struct OtherSyscall {
  std::uint64_t count = 0;
  std::uint64_t errors = 0;
  std::uint64_t ns = 0;
};

struct CallKey {
  std::string call;
  std::string path;
  std::string request;
  auto operator<=>(const CallKey&) const = default;
  std::string label() const;  // "fdatasync on plant.log", "fcntl F_SETLK on db.sqlite-shm"
};

struct CallCost {
  std::uint64_t ns = 0;
  std::uint64_t count = 0;
  std::uint64_t max_ns = 0;
  void add(std::uint64_t part_ns, std::uint64_t calls, std::uint64_t longest);
};

// A span name's cost in a phase: total (end - begin, clipped to the phase), self (total minus
// its children's), and the traced-syscall and GC time that happened while it was the innermost
// span open on its thread.
struct SpanCost {
  std::uint64_t count = 0;  // spans that began in the phase
  std::uint64_t total_ns = 0;
  std::uint64_t self_ns = 0;
  std::uint64_t syscall_ns = 0;
  std::uint64_t gc_ns = 0;
};

// Full detail: a phase window of one incarnation cut into kTimelineBins equal bins, each with the
// time its workload threads spent blocked off the CPU, runnable, and in traced calls (what is
// left of bin × threads was on a CPU outside every call). The HTML page draws one run's.
inline constexpr std::size_t kTimelineBins = 200;
struct TimelineBins {
  std::uint64_t begin_ns = 0;
  std::uint64_t end_ns = 0;
  std::vector<std::uint64_t> blocked = std::vector<std::uint64_t>(kTimelineBins);
  std::vector<std::uint64_t> runnable = std::vector<std::uint64_t>(kTimelineBins);
  std::vector<std::uint64_t> in_calls = std::vector<std::uint64_t>(kTimelineBins);
  // Adds [from, to) to `bins`, each bin its overlap with it.
  void add(std::vector<std::uint64_t>& bins, std::uint64_t from, std::uint64_t to) const;
};

struct PhaseAccount {
  std::uint64_t wall_ns = 0;          // the phase window
  std::uint32_t threads = 1;          // workload threads seen; the shares are of wall_ns × threads
  std::map<CallKey, CallCost> calls;  // the workload threads' traced calls
  CallCost writer_calls;              // the bridge writer thread's (the observer's), apart
  std::uint64_t gc_ns = 0;            // GC pauses less the traced calls inside them
  std::uint64_t gc_pauses = 0;
  // Light detail counts a call wholly in the phase it entered: the most that may belong to a
  // neighbouring phase (the longest call of this phase, once per boundary).
  std::uint64_t crossing_bound_ns = 0;
  std::uint64_t clamped_ns = 0;  // light: traced time past the window, within the bound
  // Light, measure: the worker's own measured window, when run.json gives it. The totals are
  // per harness phase, whose edges hold the protocol's blocking read of the next command; that
  // time (the phase less the worker's window) is taken out of `read` into protocol_ns, apart
  // from every part, and the phase becomes the worker's window, as in full detail.
  std::uint64_t own_window_ns = 0;
  std::uint64_t protocol_ns = 0;
  std::map<std::string, SpanCost> spans;
  // Full detail, the compiled tracer: the traced calls and blocked waits that slept, by what
  // (the part's label) and who woke the thread ("worker 1", "an interrupt", ...): their time.
  // Within the parts, never added to them.
  std::map<std::pair<std::string, std::string>, std::uint64_t> woken;
  // Full detail, the compiled tracer's on-CPU samples of the workload threads: by (the span
  // innermost at the sample, "" outside every span; the leaf frame), and in all.
  std::map<std::pair<std::string, std::string>, std::uint64_t> samples;
  std::uint64_t sample_count = 0;
  // Full detail: per span name, the time it was the innermost span open on a workload thread
  // outside every traced call and GC pause (its self time less those). With the off-CPU
  // intervals traced, that is the span's own time on a CPU. A part of its own, out of the rest.
  std::map<std::string, std::uint64_t> in_span;
  // The compiled tracer: every other system call of the workload threads, by name (both
  // details; per harness phase). Beside the parts, overlapping them.
  std::map<std::string, OtherSyscall> other_syscalls;
  std::optional<TimelineBins> timeline;  // full detail, measure: the calls and waits over time
  std::optional<std::uint64_t> cpu_ns;   // the process's on-CPU time (cpu collector), apart
  std::uint64_t cpu_window_ns = 0;       // the harness phase it was read over
  // The workload threads by the scheduler's accounting (cpu collector's schedstat), over the same
  // phase: on a CPU, and runnable (waiting for one).
  std::optional<std::uint64_t> on_cpu_ns;
  std::optional<std::uint64_t> runnable_ns;
  std::uint64_t operations = 0;  // committed transactions (or batches) of the phase
  std::uint64_t statements = 0;

  std::uint64_t thread_ns() const { return wall_ns * threads; }
  std::uint64_t syscall_ns() const;
  std::uint64_t in_span_ns() const;
  // The phase time no part explains. Never negative: finish() refuses an account whose parts
  // exceed the time beyond the light bound.
  std::uint64_t rest_ns() const;
};

struct StartupCall {
  std::uint64_t t_ns = 0;
  std::string call;
  std::int64_t fd = -1;
  std::string path;
  std::string request;
  std::uint64_t duration_ns = 0;
  std::uint64_t count = 1;  // consecutive identical calls merged
  std::string belongs_to;   // "bridge writer thread (observer)", "workload: in span X", ...
};

struct Incarnation {
  std::uint32_t worker = 0;
  std::int64_t pid = 0;
  std::uint64_t start_time_ticks = 0;
  std::int64_t parent_pid = 0;  // the harness that started it
  std::array<PhaseAccount, kPhases> phases;
  std::vector<StartupCall> startup_calls;  // full detail, first kMaxStartupCalls
  std::uint64_t startup_calls_cut = 0;
  std::vector<std::pair<std::string, std::uint64_t>> startup_steps;  // (step, ns)
};

inline constexpr std::size_t kMaxStartupCalls = 400;

// Why a part could not be attributed: its source collector's status and reason.
struct NotAttributed {
  std::string part;       // "traced syscalls", "GC pauses", "spans", "on-CPU time"
  std::string collector;  // syscall | gc | spans | cpu
  std::string status;     // not_requested | not_available | collector_failed | ...
  std::string reason;
};

// What a run's syscall part came from: every call timed (full), the collector's totals per phase
// (light), or nothing, when the collector did not record.
enum class CallDetail : std::uint8_t { none, light, full };

struct RunAccount {
  std::string id;
  std::string cell;  // the point without its trace mode
  TraceMode trace = TraceMode::baseline;
  std::optional<RunStatus> status;  // overhead_report::RunFacts::status
  CallDetail detail = CallDetail::none;
  std::string backend;              // the syscall backend
  std::optional<double> sample_hz;  // full, the compiled tracer: its on-CPU sampling rate
  std::string thread_roles;         // told_apart | mixed | "" (unknown)
  std::vector<std::pair<std::string, std::string>> values;
  double throughput = 0;
  std::vector<Incarnation> incarnations;
  std::string operation_unit = "committed transaction";  // what PhaseAccount::operations counts
  std::vector<NotAttributed> not_attributed;
  std::vector<std::string> notes;     // what the reader should know (unended spans, ...)
  std::vector<std::string> problems;  // why the account is refused; empty when it stands
};

struct CallRecord {
  IncarnationId who;
  std::int64_t tid = 0;
  bool bridge_writer = false;
  std::string_view call;
  std::string_view path;
  std::string_view request;
  std::int64_t fd = -1;
  std::uint64_t t_ns = 0;  // entry
  std::uint64_t duration_ns = 0;
  // Who last woke the thread in the call or wait: "task", "interrupt", "kernel_thread"; empty
  // when it never slept (or the backend does not say).
  std::string_view woken_by;
  std::int64_t waker_pid = 0;
  std::int64_t waker_tid = 0;
};

struct SampleRecord {
  IncarnationId who;
  std::int64_t tid = 0;
  bool bridge_writer = false;
  std::uint64_t t_ns = 0;
  std::string_view leaf;  // the leaf frame, named ("sqlite3VdbeExec (libsqlite3.so.0)")
};

struct LightTotal {
  IncarnationId who;
  Phase phase;
  bool bridge_writer = false;
  std::string call;
  std::uint64_t count = 0;
  std::uint64_t total_ns = 0;
  std::uint64_t max_ns = 0;
  struct Request {
    std::string name;
    std::uint64_t count = 0;
    std::optional<std::uint64_t> total_ns;  // where the summary keeps it apart
  };
  std::vector<Request> requests;
};

class SpanSegments;  // span_segments.h

class AccountBuilder {
 public:
  // One set of windows per incarnation, in run.incarnations' order.
  AccountBuilder(RunAccount run, std::vector<PhaseWindows> windows);
  ~AccountBuilder();
  AccountBuilder(AccountBuilder&&) noexcept;

  // Bridge records, before any call. An unended span is closed at the end of the run.
  void add_span_begin(IncarnationId who, std::int64_t tid, std::string_view id,
                      std::string_view name, std::uint64_t t_ns);
  void add_span_end(IncarnationId who, std::int64_t tid, std::string_view id, std::uint64_t t_ns);
  void add_gc(IncarnationId who, std::int64_t tid, bool begin, std::uint64_t t_ns);
  void seal_spans();  // after the bridge records, before the calls

  void add_call(const CallRecord& call);
  void add_sample(const SampleRecord& sample);  // after seal_spans()
  void add_light(const LightTotal& total);
  // The workload threads' other system calls in a phase (summary's syscall:other requests).
  void add_other_syscall(IncarnationId who, Phase phase, const std::string& name,
                         const OtherSyscall& totals);

  RunAccount finish();

 private:
  Incarnation* find(IncarnationId who);
  static void take_protocol_waits(PhaseAccount& phase);
  static std::uint64_t take_off_cpu_at_edges(PhaseAccount& phase, std::uint64_t excess);
  static void split_rest_by_span(PhaseAccount& phase);
  CallCost& cost_of(PhaseAccount& phase, std::size_t incarnation, std::size_t p,
                    const CallRecord& c);
  std::string waker_words(const Incarnation& waiter, const CallRecord& c) const;
  RunAccount run_;
  std::vector<PhaseWindows> windows_;
  std::map<IncarnationId, std::size_t> index_;
  std::map<IncarnationId, SpanSegments> segments_;
  std::set<std::pair<IncarnationId, std::int64_t>> workload_threads_;  // (incarnation, tid)
  std::map<std::pair<IncarnationId, std::size_t>, std::uint64_t> gc_calls_ns_;  // inside pauses
  std::uint64_t outside_cohort_ = 0;
  // Millions of records name a handful of keys: find a key's cost by a hash of the record's
  // views instead of building its strings for every record.
  struct CachedCost {
    std::size_t incarnation;
    std::size_t phase;
    const CallKey* key;
    CallCost* cost;
  };
  std::unordered_map<std::uint64_t, std::vector<CachedCost>> cost_cache_;
};

}  // namespace jbench::attribution
