// One way of observing the cohort's system calls (the compiled tracer, bpftrace, DTrace, strace),
// behind the interface the collector drives. Each backend launches its tool, proves it attached,
// follows phases, and after stop() turns its raw output into Observed: the same shape whatever the
// tool.
#pragma once

#include <sys/types.h>

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "backend_process.h"
#include "bpftrace_script.h"
#include "jbench/collectors/syscall/syscall_collector.h"
#include "observations.h"

namespace jbench::collectors::syscall_detail {

// Written by the drain thread while the run goes on, read by the harness's thread.
struct LiveView {
  std::mutex mu;
  std::condition_variable changed;
  bool marker_seen = false;             // bpftrace: a phase marker came back
  int sync_seen = 0;                    // bpftrace: the last sync marker read back
  std::map<pid_t, CanaryHit> canaries;  // by process, the first hit
  std::uint64_t lost = 0;
};

struct PhaseMark {
  int phase = 0;
  std::uint64_t t_ns = 0;  // CLOCK_MONOTONIC, taken right before the harness's phase message
};

// A process the backend saw in the cohort, resolved to its incarnation.
struct SeenProcess {
  pid_t pid = 0;
  std::uint64_t start_time_ticks = 0;
  pid_t parent = 0;
  std::uint64_t first_t_ns = 0;
  bool forked = false;  // a member forked it while traced (else it was registered or added)
};

struct Observed {
  bool per_call = false;               // calls holds every call (full); else totals (light)
  bool thread_roles = false;           // calls and totals tell the bridge writer's thread apart
  std::vector<CallRecord> calls;       // pid and phase filled in
  std::vector<CpuSample> samples;      // full, the compiled tracer: on-CPU samples
  std::map<TotalsKey, Totals> totals;  // light
  std::vector<CanaryHit> canaries;
  std::vector<SeenProcess> processes;
  std::uint64_t lost = 0;
  std::uint64_t malformed = 0;
  std::vector<std::string> malformed_examples;
  std::uint64_t in_progress = 0;      // calls under way when tracing began or ended: not counted
  std::vector<std::string> problems;  // faults that fail the collector, with their reason
  nlohmann::json header = nlohmann::json::object();  // backend facts for the raw file's header
  nlohmann::json entry = nlohmann::json::object();   // and for the run.json entry
};

struct BackendContext {
  Detail detail = Detail::light;
  std::vector<CohortProcess> cohort;
  std::string raw_dir;
  std::uint64_t max_output_bytes = 0;
  pid_t harness_pid = 0;
  LiveView* live = nullptr;
};

// Why a tool could not trace what it was asked to (the host's tools or kernel; never the input).
inline Error attach_failed(std::string why) { return Error{std::move(why), 0, ErrorKind::host}; }

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;
  virtual std::string version() const = 0;
  // Launches the tool and waits, until `deadline_ns`, for the proof that it is attached; else
  // why not (the tool is then stopped).
  virtual jbench::Status attach(std::uint64_t deadline_ns) = 0;
  virtual bool launched() const = 0;  // the tool was started (it may have failed since)
  virtual bool alive() = 0;
  virtual pid_t pid() const = 0;  // the tool's process (launched() only)
  virtual void mark_phase(int phase) = 0;
  // Traces a process that joined the cohort, or says why it cannot.
  virtual jbench::Status add_process(const CohortProcess& process) = 0;
  virtual BackendEnd stop(std::uint64_t deadline_ns) = 0;
  // After stop(): everything the tool wrote, read back. `marks` are the harness's phase marks.
  virtual Observed collect(const std::vector<PhaseMark>& marks) = 0;
  // The raw records were written whole from what collect() gave: a backend whose own output
  // they translate completely may drop that output now, so it is not kept twice.
  virtual void translated() {}
  virtual std::vector<std::string> raw_files() const = 0;  // names inside raw_dir
  virtual std::uint64_t output_bytes() const = 0;
  virtual bool over_bound() const = 0;
};

std::unique_ptr<Backend> make_bpftrace_backend(BackendContext context, std::string executable,
                                               std::string tracefs);
std::unique_ptr<Backend> make_strace_backend(BackendContext context, std::string executable);
// A real DTrace at `executable` (host_caps::find_dtrace), light and full.
std::unique_ptr<Backend> make_dtrace_backend(BackendContext context, std::string executable,
                                             std::string version);
// The compiled tracer, where this build has it (JBENCH_HAVE_LIBBPF); light detail only so far.
std::unique_ptr<Backend> make_libbpf_backend(BackendContext context);

}  // namespace jbench::collectors::syscall_detail
