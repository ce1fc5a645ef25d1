#include "jbench/collectors/syscall/syscall_collector.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "backend.h"
#include "fd_table.h"
#include "host_tools.h"
#include "jbench/common/clock.h"
#include "jbench/events/event_file.h"
#include "jbench/host_caps/dtrace.h"
#include "jbench/host_caps/tracefs.h"
#include "report.h"
#include "status.h"
#include "syscall_table.h"

namespace jbench::collectors {

using Json = nlohmann::json;
using namespace syscall_detail;

namespace {

// The raw records, compressed (the text of docs/events.md in one zstd frame).
constexpr const char* kEventsFile = "syscall.events.jsonl.zst";

Ended ended_of(const proc::ExitStatus& s) {
  return s.signaled ? Ended::killed(s.signal) : Ended::exit(s.code);
}

// The raw file's header (docs/events.md): who wrote it, on which clock, in which units, for
// which run, and where the phases began.
Json events_header(const Backend& backend, const SyscallOptions& options, const Json& phases) {
  return {{"schema", kEventSchema},
          {"schema_version", kEventSchemaVersion},
          {"collector", "syscall"},
          {"backend", backend.name()},
          {"backend_version", backend.version()},
          {"clock", JB_EVENTS_CLOCK},
          {"units",
           {{"t_ns", "ns"},
            {"duration_ns", "ns"},
            {"total_ns", "ns"},
            {"max_ns", "ns"},
            {"count", "count"},
            {"errors", "count"}}},
          {"run_id", options.run_id},
          {"boot_id", options.boot_id},
          {"detail", options.detail == SyscallDetail::full ? "full" : "light"},
          {"phases", phases}};
}

}  // namespace

struct SyscallCollector::State {
  SyscallOptions options;
  std::vector<CohortProcess> cohort;
  std::vector<CohortProcess> added;
  std::map<pid_t, FdSnapshot> snapshots;
  LiveView live;
  std::unique_ptr<Backend> backend;
  std::string unavailable;  // not_available: why
  std::string remediation;
  std::string start_failure;
  Json fallback;     // when "" chose strace because bpftrace could not run or attach
  Json passed_over;  // when "" did not choose the compiled tracer for light, and why
  std::uint64_t started_ns = 0;
  std::uint64_t attached_ns = 0;
  bool canaries_awaited = false;
  bool attach_verified = false;
  std::vector<PhaseMark> marks;
  std::vector<std::string> problems;
  std::optional<SyscallStop> stopped;  // finish() runs once

  bool attached() const { return backend && start_failure.empty() && unavailable.empty(); }
  std::string raw(const std::string& name) const { return options.raw_dir + "/" + name; }
  // A file's name relative to the run directory (raw_dir's parent), as run.json names files.
  std::string in_run(const std::string& name) const {
    return std::filesystem::path(options.raw_dir).filename().string() + "/" + name;
  }
  void choose_and_attach();
  BackendContext backend_context();
  void attach_dtrace(const BackendContext& ctx);
  void attach_libbpf(const BackendContext& ctx);
  void attach_bpftrace_or_strace(const std::string& wanted, const BackendContext& ctx);
  jbench::Status try_backend(std::unique_ptr<Backend> candidate);
  // The attach's failure, if it failed, is the collector's start failure.
  void keep_failure(const jbench::Status& attached) {
    if (!attached) start_failure = attached.error().message;
  }
  SyscallStop finish(std::uint64_t deadline_ns);
  void stop_and_report(std::uint64_t deadline_ns, SyscallFacts& facts, CollectorEntry& e,
                       ReportOutput& report, Observed& observed);
  void tally_canaries(const Observed& observed, SyscallFacts& facts, CollectorEntry& e);
};

jbench::Status SyscallCollector::State::try_backend(std::unique_ptr<Backend> candidate) {
  const std::uint64_t deadline = monotonic_ns() + options.attach_timeout_ns;
  jbench::Status attached = candidate->attach(deadline);
  backend = std::move(candidate);
  if (attached) attached_ns = monotonic_ns();
  return attached;
}

BackendContext SyscallCollector::State::backend_context() {
  BackendContext ctx;
  ctx.detail = options.detail == SyscallDetail::full ? Detail::full : Detail::light;
  ctx.cohort = cohort;
  ctx.raw_dir = options.raw_dir;
  ctx.max_output_bytes = options.max_output_bytes;
  ctx.harness_pid = getpid();
  ctx.live = &live;
  return ctx;
}

// DTrace only when asked for: the best backend is chosen among the others.
void SyscallCollector::State::attach_dtrace(const BackendContext& ctx) {
  const host_caps::DtraceFound dtrace = host_caps::find_dtrace();
  if (dtrace.path.empty()) {
    unavailable = dtrace.reason;
    remediation = dtrace.remediation;
    return;
  }
  keep_failure(try_backend(make_dtrace_backend(ctx, dtrace.path, dtrace.version)));
}

void SyscallCollector::State::attach_libbpf([[maybe_unused]] const BackendContext& ctx) {
#ifdef JBENCH_HAVE_LIBBPF
  keep_failure(try_backend(make_libbpf_backend(ctx)));
#else
  unavailable = "this jbench was built without the compiled tracer";
  remediation = "install libbpf-dev, bpftool and clang (bash ci/install-deps.sh) and rebuild";
#endif
}

// bpftrace when asked for or when it can run, else strace; when bpftrace could run but would not
// attach, strace, and the entry says why.
void SyscallCollector::State::attach_bpftrace_or_strace(const std::string& wanted,
                                                        const BackendContext& ctx) {
  const std::string bpftrace = find_on_path("bpftrace");
  const std::string tracefs = host_caps::find_tracefs().dir;
  const std::string strace_path = find_on_path("strace");
  const Unavailable no_bpftrace = bpftrace_unavailable(bpftrace, tracefs);
  const Unavailable no_strace = strace_unavailable(strace_path);
  if (wanted == "bpftrace" || (wanted.empty() && no_bpftrace.empty())) {
    if (!no_bpftrace.empty()) {
      unavailable = no_bpftrace.reason;
      remediation = no_bpftrace.remediation;
      return;
    }
    const jbench::Status tried = try_backend(make_bpftrace_backend(ctx, bpftrace, tracefs));
    if (tried) return;
    const std::string& why = tried.error().message;
    if (!wanted.empty() || !no_strace.empty()) {
      start_failure = why;
      return;
    }
    Json evidence = Json::array();
    for (const auto& f : backend->raw_files()) evidence.push_back(in_run(f));
    fallback = {{"from", "bpftrace"}, {"reason", why}, {"raw", evidence}};
    if (const jbench::Status strace = try_backend(make_strace_backend(ctx, strace_path)); !strace) {
      start_failure = fmt::format("bpftrace: {}; strace: {}", why, strace.error().message);
    }
    return;
  }
  if (!no_strace.empty()) {
    unavailable = wanted.empty() ? fmt::format("bpftrace: {}; strace: {}", no_bpftrace.reason,
                                               no_strace.reason)
                                 : no_strace.reason;
    remediation = wanted.empty() ? fmt::format("for bpftrace: {}; for strace: {}",
                                               no_bpftrace.remediation, no_strace.remediation)
                                 : no_strace.remediation;
    return;
  }
  if (wanted.empty()) fallback = {{"from", "bpftrace"}, {"reason", no_bpftrace.reason}};
  keep_failure(try_backend(make_strace_backend(ctx, strace_path)));
}

void SyscallCollector::State::choose_and_attach() {
  const std::string& wanted = options.backend;
  if (wanted != "" && wanted != "bpftrace" && wanted != "strace" && wanted != "libbpf" &&
      wanted != "dtrace") {
    start_failure = fmt::format(
        "unknown backend '{}' (libbpf, bpftrace, dtrace, strace, or empty for the best)", wanted);
    return;
  }
  const BackendContext ctx = backend_context();
  if (wanted == "dtrace") return attach_dtrace(ctx);
  if (wanted == "libbpf") return attach_libbpf(ctx);
#ifdef JBENCH_HAVE_LIBBPF
  // The best: the compiled tracer (loaded once per session). Where it cannot load, bpftrace,
  // then strace, as before, and the entry says why it was passed over.
  if (wanted.empty() && options.compiled_first) {
    const jbench::Status tried = try_backend(make_libbpf_backend(ctx));
    if (tried) return;
    backend.reset();
    passed_over = {{"from", "libbpf"}, {"reason", tried.error().message}};
  }
#endif
  attach_bpftrace_or_strace(wanted, ctx);
}

std::unique_ptr<SyscallCollector> SyscallCollector::start(const SyscallOptions& options,
                                                          std::vector<CohortProcess> cohort) {
  auto state = std::make_unique<State>();
  state->options = options;
  // "/run/raw/" and "/run/./raw" name the same directory as "/run/raw".
  std::string& dir = state->options.raw_dir;
  dir = std::filesystem::path(dir).lexically_normal().string();
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  state->cohort = std::move(cohort);
  state->started_ns = monotonic_ns();
  state->marks.push_back({0, state->started_ns});
  std::error_code ec;
  if (dir.empty() || dir.front() != '/') {
    state->start_failure = fmt::format("raw_dir '{}' is not an absolute path", options.raw_dir);
  } else if (std::filesystem::create_directories(dir, ec); ec) {
    state->start_failure = fmt::format("cannot create {}: {}", dir, ec.message());
  } else if (state->cohort.empty()) {
    state->start_failure = "the cohort is empty: there is nothing to trace";
  } else {
    // Descriptors the workers hold before tracing starts (they are blocked: the table is still).
    if (options.detail == SyscallDetail::full) {
      for (const auto& p : state->cohort) state->snapshots[p.pid] = read_fd_snapshot(p.pid);
    }
    state->choose_and_attach();
  }
  return std::unique_ptr<SyscallCollector>(new SyscallCollector(std::move(state)));
}

SyscallCollector::SyscallCollector(std::unique_ptr<State> state) : state_(std::move(state)) {}

SyscallCollector::~SyscallCollector() {
  // Never leave the tool running: finish() was not called (an exception, an early return).
  if (state_->backend && state_->backend->launched() && !state_->stopped)
    state_->backend->stop(monotonic_ns() + 2'000'000'000ULL);
}

std::string SyscallCollector::backend() const {
  return state_->backend ? std::string(state_->backend->name()) : std::string("none");
}

pid_t SyscallCollector::backend_pid() const {
  return state_->backend && state_->backend->launched() ? state_->backend->pid() : 0;
}

bool SyscallCollector::await_canaries(std::uint64_t deadline_ns) {
  State& s = *state_;
  s.canaries_awaited = true;
  if (!s.attached()) return false;
  std::unique_lock lock(s.live.mu);
  for (;;) {
    bool all = true;
    for (const auto& p : s.cohort) all = all && s.live.canaries.count(p.pid) > 0;
    if (all) {
      s.attach_verified = true;
      return true;
    }
    if (monotonic_ns() >= deadline_ns) return false;
    lock.unlock();
    const bool alive = s.backend->alive();
    lock.lock();
    if (!alive) return false;
    s.live.changed.wait_for(lock, std::chrono::milliseconds(10));
  }
}

void SyscallCollector::mark_phase(std::string_view phase) {
  State& s = *state_;
  const auto number = phase_number(phase);
  if (!number) {
    s.problems.push_back(
        fmt::format("mark_phase(\"{}\"): not a phase (startup, warmup, measure, "
                    "teardown)",
                    phase));
    return;
  }
  s.marks.push_back({*number, monotonic_ns()});
  if (s.attached()) s.backend->mark_phase(*number);
}

void SyscallCollector::add_process(CohortProcess process) {
  State& s = *state_;
  s.added.push_back(process);
  if (s.options.detail == SyscallDetail::full) {
    s.snapshots.try_emplace(process.pid, read_fd_snapshot(process.pid));
  }
  if (!s.attached()) return;
  if (const jbench::Status added = s.backend->add_process(process); !added) {
    s.problems.push_back(added.error().message);
  }
}

SyscallStop SyscallCollector::finish(std::uint64_t deadline_ns) {
  if (!state_->stopped) state_->stopped = state_->finish(deadline_ns);
  return *state_->stopped;
}

Json SyscallCollector::stop(std::uint64_t deadline_ns) {
  const SyscallStop& s = finish(deadline_ns);
  Json out = s.entry.to_json();
  out["summary"] = s.summary;
  return out;
}

// The backend stopped, its output collected and written as the run's raw file, and what that
// says into `facts` and the entry.
void SyscallCollector::State::stop_and_report(std::uint64_t deadline_ns, SyscallFacts& facts,
                                              CollectorEntry& e, ReportOutput& report,
                                              Observed& observed) {
  const BackendEnd end = backend->stop(deadline_ns);
  e.ended = ended_of(end.status);
  facts.ended_known = true;
  facts.ended_by_signal = end.status.signaled;
  facts.exit_code = end.status.code;
  facts.signal = end.status.signal;
  facts.died_during_run = end.before_stop;
  facts.killed_at_deadline = end.killed_at_deadline;
  observed = backend->collect(marks);
  facts.over_bound = backend->over_bound();
  ReportInput in;
  in.events_path = raw(kEventsFile);
  in.max_output_bytes = options.max_output_bytes;
  Json phases = Json::array();
  for (const auto& m : marks) {
    phases.push_back({{"phase", kPhases[m.phase]}, {"t_ns", std::to_string(m.t_ns)}});
  }
  in.header = events_header(*backend, options, phases);
  for (const auto& [k, v] : observed.header.items()) in.header[k] = v;
  in.ended = e.ended->to_json();
  in.started_ns = started_ns;
  in.marks = marks;
  in.registered = &cohort;
  in.added = &added;
  in.snapshots = &snapshots;
  report = write_report(in, observed);
  // Whole: written without error and within the bound, so nothing of the backend's is lost.
  if (report.write_error.empty() && !report.over_bound) backend->translated();
  facts.over_bound = facts.over_bound || report.over_bound;
  {
    // The live count and the file's can differ only if the output was cut: take the larger.
    std::lock_guard lock(live.mu);
    facts.dropped = std::max(observed.lost, live.lost) + report.refused;
  }
  facts.malformed = observed.malformed;
  for (auto& p : observed.problems) facts.problems.push_back(std::move(p));
  for (auto& p : report.problems) facts.problems.push_back(std::move(p));
  if (!report.write_error.empty()) facts.problems.push_back(report.write_error);
  if (observed.malformed > 0) {
    facts.problems.push_back(
        fmt::format("first malformed line: {}", observed.malformed_examples.empty()
                                                    ? std::string("?")
                                                    : observed.malformed_examples.front()));
  }
  facts.records = report.records;
  Json& out = e.extra;
  out["phase_marks"] = phases;
  std::vector<std::string> files;
  for (const auto& f : backend->raw_files()) files.push_back(in_run(f));
  out["backend_raw"] = files;
  for (const auto& [k, v] : observed.entry.items()) out[k] = v;
}

// Canaries: what the backend's output holds, and what was seen live.
void SyscallCollector::State::tally_canaries(const Observed& observed, SyscallFacts& facts,
                                             CollectorEntry& e) {
  std::set<pid_t> canary_pids;
  for (const auto& k : observed.canaries) canary_pids.insert(k.pid);
  {
    std::lock_guard lock(live.mu);
    for (const auto& [pid, k] : live.canaries) canary_pids.insert(pid);
  }
  for (const auto& p : cohort) {
    if (canary_pids.count(p.pid)) {
      e.canaries_seen.push_back(p.worker_index);
    } else {
      facts.missing_canaries.push_back(p.worker_index);
    }
  }
}

SyscallStop SyscallCollector::State::finish(std::uint64_t deadline_ns) {
  SyscallFacts facts;
  facts.unavailable = unavailable;
  facts.start_failure = start_failure;
  facts.canaries_awaited = canaries_awaited;
  facts.attach_verified = attach_verified;
  facts.max_output_bytes = options.max_output_bytes;
  facts.problems = problems;
  CollectorEntry e;
  e.name = "syscall";
  e.backend = backend                   ? std::string(backend->name())
              : options.backend.empty() ? std::string("none")
                                        : options.backend;
  e.setting = options.detail == SyscallDetail::full ? "full" : "light";
  ReportOutput report;
  Observed observed;
  if (backend && backend->launched()) stop_and_report(deadline_ns, facts, e, report, observed);
  tally_canaries(observed, facts, e);
  StatusDecision decision = decide_status(facts);
  e.status = decision.status;
  e.reason = std::move(decision.reason);
  if (e.status == Status::not_available) e.remediation = remediation;
  if (backend && backend->launched() && report.write_error.empty()) {
    e.raw.push_back(in_run(kEventsFile));
  }
  Json& out = e.extra;
  if (!fallback.is_null()) out["fallback"] = fallback;
  if (!passed_over.is_null()) out["libbpf_passed_over"] = passed_over;
  if (started_ns) e.started_ns = started_ns;
  if (attached_ns) e.attached_ns = attached_ns;
  e.attach_verified = attach_verified;
  e.records = report.records;
  e.dropped = facts.dropped;
  e.malformed = facts.malformed;
  out["calls"] = report.calls;
  out["output_bytes"] = backend ? backend->output_bytes() : 0;
  Json followed = Json::array();
  for (const auto& inc : report.incarnations.list()) {
    if (inc.origin != "forked") continue;
    followed.push_back({{"pid", inc.pid},
                        {"start_time_ticks", std::to_string(inc.start_time_ticks)},
                        {"parent", inc.parent}});
  }
  out["followed"] = followed;
  return {std::move(e), report.summary.is_null() ? Json::object() : report.summary};
}

}  // namespace jbench::collectors
