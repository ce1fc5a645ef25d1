// The compiled syscall tracer (bpf/syscall_trace.bpf.c) as the syscall collector drives it:
// loaded (CO-RE, from the skeleton built into jbench) once, attached only while a run is traced,
// and scoped to that run by the cohort the harness fills; between runs nothing is attached, so
// the host's system calls (a baseline run's among them) pay nothing for it.
//
//   auto tracer = LibbpfTracer::open();      // or what this host refused, with its errno
//   (*tracer)->begin_run({pid0, pid1});      // light; or with a records file: full
//   tracer->set_phase(2);                    // right before each phase message
//   tracer->poll(canaries, forks, 10);       // canaries, forks; full: records to the file
//   RunEnd end = tracer->end_run();          // light totals; lost, missing, unfinished
//
// One thread at a time. The tracer's maps hold the cohort of one run only.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "jbench/common/result.h"
#include "libbpf_records.h"
#include "observations.h"

namespace jbench::collectors::syscall_detail {

struct ForkSeen {
  pid_t parent = 0;
  pid_t child = 0;
  std::uint64_t start_boottime_ns = 0;
  std::uint64_t t_ns = 0;
};

struct TracerOptions {
  // full: the records ring's size, rounded up to a power of two of at least a page.
  std::size_t record_ring_bytes = 32u << 20;
  // Follow the cohort's threads off the CPU outside their traced calls (off-cpu:blocked,
  // off-cpu:runnable). Off: only system calls, for a test that counts records exactly.
  bool off_cpu = true;
  // full: sample the cohort's threads on the CPU (JB_SAMPLE_HZ). Off: records of calls only.
  bool samples = true;
};

// Where a full run's records go, and its bound.
struct RecordsOutput {
  std::string path;  // empty: light
  std::uint64_t max_bytes = UINT64_MAX;
};

struct RunEnd {
  std::map<TotalsKey, Totals> totals;  // light
  RecordTrailer records;               // full: what the trailer of the records file says
  std::uint64_t lost = 0;              // records the kernel side could not keep
  std::uint64_t unfinished = 0;        // calls under way when tracing ended: not counted
  bool over_bound = false;             // full: the records file reached RecordsOutput::max_bytes
  std::vector<std::string> problems;   // faults that fail the collector
};

class LibbpfTracer {
 public:
  // Loads, and attaches once to prove it can; or why this host refuses (no BTF, no privilege,
  // verifier), with the errno the refusal came with (0 when it had none).
  static Result<std::unique_ptr<LibbpfTracer>> open(const TracerOptions& options = {});
  ~LibbpfTracer();
  LibbpfTracer(const LibbpfTracer&) = delete;
  LibbpfTracer& operator=(const LibbpfTracer&) = delete;

  std::uint64_t attach_ns() const { return attach_ns_; }  // how long open() took
  std::size_t record_ring_bytes() const;
  // What a records ring asked to hold `bytes` is: a power of two of at least a page.
  static std::size_t ring_size(std::size_t bytes);
  // False once a run found its programs no longer running: the tracer must be opened again.
  bool healthy() const { return healthy_; }
  // The BPF object (ELF) built into jbench: the exact program that traces, for provenance.
  static std::string program_object();
  // The traced calls (and canary calls) this architecture has, by name.
  const std::vector<std::string>& attached_calls() const { return attached_; }
  // "" when full runs sample the cohort on the CPU (JB_SAMPLE_HZ per CPU), else why not.
  const std::string& sampling() const { return sampling_; }
  // How often the sys_enter program ran, as the kernel counts while its statistics are enabled
  // (BPF_ENABLE_STATS, kernel.bpf_stats_enabled); 0 when they never were.
  std::uint64_t entry_program_runs() const;

  // Attaches the programs and starts tracing `tgids` (and their forks) in phase 0: light, or
  // full into `records.path` (created; it must not exist); or why not.
  jbench::Status begin_run(const std::vector<pid_t>& tgids, const RecordsOutput& records = {});
  void set_phase(int phase);
  jbench::Status add_process(pid_t tgid);
  // Takes what the rings hold, waiting up to `timeout_ms` for a canary or fork to arrive, or for
  // the records ring to fill up (0: only what is there now): canaries and forks are appended;
  // full: records go to the file, in batches.
  void poll(std::vector<CanaryHit>& canaries, std::vector<ForkSeen>& forks, int timeout_ms = 0);
  // Proves both syscall programs still run, stops tracing, detaches the programs, and drains: full,
  // until every CPU's drained record is read, then closes the file with its trailer. Reads and
  // clears the totals. Canaries and forks still in the ring are appended to `canaries` and `forks`.
  RunEnd end_run(std::vector<CanaryHit>& canaries, std::vector<ForkSeen>& forks);
  RunEnd end_run();

  struct State;

 private:
  explicit LibbpfTracer(std::unique_ptr<State> state);
  std::map<TotalsKey, Totals> read_totals();                    // and clears them
  void read_other_totals(std::map<TotalsKey, Totals>& totals);  // and clears them
  void clear_totals();
  void prove_attached(RunEnd& out);
  void drain_every_cpu(RunEnd& out, std::vector<CanaryHit>& canaries, std::vector<ForkSeen>& forks);
  void close_records(RunEnd& out);
  void sample_clock(bool on);  // the per-CPU sampling events, on for a full run only
  std::unique_ptr<State> state_;
  std::uint64_t attach_ns_ = 0;
  bool healthy_ = true;
  std::vector<std::string> attached_;
  std::string sampling_;
};

}  // namespace jbench::collectors::syscall_detail
