#include "run_one.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "cohort.h"
#include "jbench/common/clock.h"
#include "jbench/proc/proc_stat.h"
#include "jbench/run_summaries/lanes.h"
#include "jbench/run_summaries/result_rules.h"
#include "run_collectors.h"
#include "worker_link.h"

namespace jbench::run {
namespace {

using Json = nlohmann::json;

// How long the bridge may take to write a canary into its file after the worker reported it.
constexpr std::uint64_t kCanaryWaitNs = 2'000'000'000ULL;
// How long collectors may take to attach to a registered cohort.
constexpr std::uint64_t kAttachTimeoutNs = 60'000'000'000ULL;

Json phase_json(const Phase& p) {
  return p.kind == Phase::Kind::duration ? Json{{"duration_ms", p.amount}}
                                         : Json{{"operations", p.amount}};
}

// The configure message of worker `index`: everything it needs, nothing it could infer.
Json configure_message(const RunSpec& spec, std::size_t index, const std::string& db) {
  const Plan& plan = *spec.plan;
  const Matrix& m = *plan.matrix;
  const Run& run = plan.runs[spec.run_index];
  const Block& block = plan.blocks[run.block];
  const auto label = [&](Axis a) {
    return m.axis(a).labels[block.point[static_cast<std::size_t>(a)]];
  };
  const Dataset& d = m.datasets[block.point[static_cast<std::size_t>(Axis::dataset)]];
  Json params = {{"page_cache_kib", d.page_cache_kib}};
  for (const auto& p : point_params(m, block.point)) {
    if (p.key == "read_ratio" && label(Axis::lane) != "mixed") continue;
    // None (an absent optional parameter) is not sent: the worker's default is absence too.
    with_value(p, [&](const auto& v) { params[p.key] = v; });
  }
  return {{"type", "configure"},
          {"worker_index", index},
          {"seed", std::to_string(block.seed)},
          {"lane", label(Axis::lane)},
          {"connection", label(Axis::connection)},
          {"db", db},
          {"params", params},
          {"phases", {{"warmup", phase_json(m.warmup)}, {"measure", phase_json(m.measure)}}}};
}

class RunExecution {
 public:
  RunExecution(const RunSpec& spec, const proc::InterruptWatch& interrupt)
      : spec_(spec),
        interrupt_(interrupt),
        plan_(*spec.plan),
        m_(*plan_.matrix),
        run_(plan_.runs[spec.run_index]),
        block_(plan_.blocks[run_.block]),
        spawner_(spec.spawner ? *spec.spawner : real_spawner()),
        clock_(spec.clock ? *spec.clock : real_clock()),
        transcript_(clock_),
        cohort_(proc::read_boot_id()),
        collectors_(collectors_setup(spec, proc::read_boot_id())) {}

  RunRecord execute();

 private:
  static collectors::RunContext collectors_setup(const RunSpec& spec, std::string boot_id);
  void scan();
  bool prepare_database(std::string& db);
  bool spawn_and_register(const std::string& db);
  bool measure();
  void check_results();
  RunRecord record();
  bool spawn_workers(std::uint32_t count);
  bool admit_attach_release(std::uint64_t& startup_deadline);
  bool register_workers(const std::string& db, std::uint64_t startup_deadline);
  bool verify_canaries(std::uint64_t startup_deadline);
  bool step(std::string_view expect, std::uint64_t deadline, std::vector<Json>& got);
  bool broadcast(const Json& message);
  void fail(WaitFailure failure);
  void teardown();
  Json workers_json() const;
  // The run's value on axis `a`, as its cell names it.
  std::string axis_label(Axis a) const {
    return m_.axis(a).labels[block_.point[static_cast<std::size_t>(a)]];
  }
  std::string lane_label() const { return axis_label(Axis::lane); }
  // A measure-phase counter summed over the workers' results.
  std::uint64_t measured_count(const char* key) const {
    std::uint64_t n = 0;
    for (const auto& r : result_) {
      if (r.contains(key) && r[key].is_number_unsigned()) n += r[key].get<std::uint64_t>();
    }
    return n;
  }

  const RunSpec& spec_;
  const proc::InterruptWatch& interrupt_;
  const Plan& plan_;
  const Matrix& m_;
  const Run& run_;
  const Block& block_;
  Spawner& spawner_;
  Clock& clock_;
  Transcript transcript_;
  Cohort cohort_;
  RunCollectors collectors_;
  std::vector<WorkerLink> workers_;
  PumpLimits limits_;
  pid_t group_ = 0;
  std::uint64_t run_deadline_ = 0;
  std::optional<RunStatus> status_;  // set by the first failure
  bool confirmed_ = false;  // every worker's hello confirmed the cohort admitted before exec
  RunRecord record_;
  Json boundaries_ = Json::object();
  Json startup_steps_ = Json::object();  // where start-up time went, inside startup
  std::vector<Json> hello_, ready_, canary_, warmup_, measure_, result_, bye_;
};

collectors::RunContext RunExecution::collectors_setup(const RunSpec& spec, std::string boot_id) {
  const Plan& plan = *spec.plan;
  collectors::RunContext s;
  s.mode = plan.runs[spec.run_index].trace;
  s.workload = workload_traits(plan.matrix->workload);
  s.run_id = spec.run_id;
  s.run_dir = spec.run_dir;
  s.boot_id = std::move(boot_id);
  s.alloc_library = spec.alloc_library;
  s.syscall_backend =
      spec.syscall_backend.empty() ? plan.matrix->collectors.syscall_backend : spec.syscall_backend;
  s.counter_backend = plan.matrix->collectors.counter_backend;
  s.max_output_bytes = std::uint64_t{plan.matrix->limits.output_mib} * 1024 * 1024;
  s.seed = plan.blocks[plan.runs[spec.run_index].block].seed;
  const CollectorSettings& settings = plan.matrix->collectors;
  const auto& chosen = s.mode == TraceMode::light  ? settings.alloc_mean_bytes_light
                       : s.mode == TraceMode::full ? settings.alloc_mean_bytes_full
                                                   : std::optional<std::uint64_t>();
  s.alloc_mean_bytes = chosen.value_or(collectors::alloc_mean_bytes_for(s.mode));
  return s;
}

// Processes a worker forked join the cohort, and every collector follows them.
void RunExecution::scan() {
  // Group 0 (nothing was spawned) and 1 would take in the kernel's threads and init.
  if (group_ <= 1) return;
  const std::size_t before = cohort_.members().size();
  cohort_.scan_group(spawner_.processes_in_group(group_));
  for (std::size_t i = before; i < cohort_.members().size(); ++i) {
    collectors_.joined(cohort_.members()[i]);
  }
}

void RunExecution::fail(WaitFailure failure) {
  if (status_) return;  // the first failure is the cause; later ones follow it
  switch (failure.result) {
    case WaitResult::timeout:
      status_ = RunStatus::timeout;
      break;
    case WaitResult::interrupted:
      status_ = RunStatus::interrupted;
      break;
    default:
      status_ = RunStatus::failed;
      break;
  }
  record_.reason = std::move(failure.reason);
}

bool RunExecution::step(std::string_view expect, std::uint64_t deadline, std::vector<Json>& got) {
  limits_.deadline_ns = deadline;
  auto failure = await_all(workers_, expect, limits_, interrupt_, transcript_, clock_, got);
  if (failure.result == WaitResult::ok) return true;
  fail(std::move(failure));
  return false;
}

bool RunExecution::broadcast(const Json& message) {
  WaitFailure failure;
  if (send_all(workers_, message, transcript_, clock_, failure)) return true;
  fail(std::move(failure));
  return false;
}

bool RunExecution::prepare_database(std::string& db) {
  std::error_code ec;
  std::filesystem::create_directories(spec_.scratch_dir, ec);
  if (ec) {
    fail({WaitResult::failed, 0,
          fmt::format("cannot create the scratch directory {}: {}", spec_.scratch_dir,
                      ec.message())});
    return false;
  }
  if (!spec_.dataset || !spec_.dataset->error.empty()) {
    fail({WaitResult::failed, 0, spec_.dataset ? spec_.dataset->error : "no dataset"});
    return false;
  }
  db = spec_.scratch_dir + "/db.sqlite";
  std::filesystem::copy_file(spec_.dataset->path, db,
                             std::filesystem::copy_options::overwrite_existing, ec);
  if (ec) {
    fail({WaitResult::failed, 0,
          fmt::format("cannot copy the dataset into {}: {}", db, ec.message())});
    return false;
  }
  // The copy reaches the disk before any phase starts. Left dirty, its megabytes are written back
  // by the first checkpoint's fsync, or by the kernel seconds later — inside this run's measure
  // phase or the next run's, whichever mode it is.
  const int fd = ::open(db.c_str(), O_RDONLY | O_CLOEXEC);
  const int synced = fd < 0 ? -1 : ::fdatasync(fd);
  const int error = errno;
  if (fd >= 0) ::close(fd);
  if (synced != 0) {
    fail({WaitResult::failed, 0,
          fmt::format("cannot flush the dataset copy {}: {}", db, std::strerror(error))});
    return false;
  }
  return true;
}

// Every worker spawned, held before its exec, into the run's process group.
bool RunExecution::spawn_workers(std::uint32_t count) {
  for (std::uint32_t i = 0; i < count; ++i) {
    proc::SpawnSpec s;
    std::vector<std::string> command = spec_.worker;
    command.emplace_back("serve");
    command = collectors_.worker_command(i, std::move(command));
    s.executable = command.front();
    s.args.assign(command.begin() + 1, command.end());
    s.working_dir = spec_.scratch_dir;
    s.stderr_path = fmt::format("{}/worker-{}.stderr", spec_.logs_dir, i);
    s.extra_env = {{"JBENCH_RUN_ID", spec_.run_id}, {"JBENCH_WORKER_INDEX", std::to_string(i)}};
    for (auto& kv : collectors_.worker_env(i)) s.extra_env.push_back(std::move(kv));
    s.process_group = group_;
    // Held before exec until the collectors have it: its start-up is traced from the first
    // instruction of its program (dynamic loading, the bridge's and the runtime's own start).
    s.hold_before_exec = true;
    auto spawned = spawner_.spawn(s);
    if (!spawned) {
      fail({WaitResult::failed, i, fmt::format("worker {}: {}", i, spawned.error().message)});
      return false;
    }
    if (group_ == 0) group_ = (*spawned)->process_group();
    limits_.stderr_paths.push_back(s.stderr_path);
    workers_.push_back(WorkerLink{i, std::move(*spawned), {}, false});
  }
  startup_steps_["spawned_ns"] = ns_string(clock_.now_ns());
  return true;
}

// Every worker, held before its exec, admitted to the cohort by pid and start time; the
// collectors attached to it; then every worker released to run its program. The workers'
// startup budget (`startup_deadline`) starts once the collectors are attached.
bool RunExecution::admit_attach_release(std::uint64_t& startup_deadline) {
  for (auto& w : workers_) {
    if (const Status admitted = cohort_.admit_spawned(w.index, w.process->pid()); !admitted) {
      fail({WaitResult::failed, w.index, admitted.error().message});
      return false;
    }
  }
  // A kernel-side tracer may take seconds to compile and attach: that is its own budget (within
  // the run's).
  if (Status attached = collectors_.attach(
          cohort_, workers_.size(),
          std::min<std::uint64_t>(run_deadline_, clock_.now_ns() + kAttachTimeoutNs));
      !attached.ok()) {
    fail({WaitResult::failed, 0, attached.error().message});
    return false;
  }
  startup_deadline = std::min<std::uint64_t>(
      run_deadline_, clock_.now_ns() + std::uint64_t{spec_.startup_timeout_ms} * 1'000'000);
  startup_steps_["collectors_attached_ns"] = ns_string(clock_.now_ns());
  for (auto& w : workers_) {
    if (const Status released = w.process->release_exec(); !released) {
      fail({WaitResult::failed, w.index,
            fmt::format("worker {}: {}", w.index, released.error().message)});
      return false;
    }
  }
  startup_steps_["released_ns"] = ns_string(clock_.now_ns());
  return true;
}

// Every worker says hello and then blocks: its hello confirms the incarnation admitted. Then
// each is configured and says it is ready.
bool RunExecution::register_workers(const std::string& db, std::uint64_t startup_deadline) {
  if (!step("hello", startup_deadline, hello_)) return false;
  startup_steps_["hello_ns"] = ns_string(clock_.now_ns());
  for (auto& w : workers_) {
    if (const Status registered =
            cohort_.register_worker(w.index, w.process->pid(), hello_[w.index]);
        !registered) {
      // Neither the refused hello nor those after it, never registered, are the sessions':
      // run.json takes no time from them (the validator, reading the transcript, ends a session
      // at a hello that breaks the protocol).
      for (std::size_t i = w.index; i < hello_.size(); ++i) hello_[i] = nullptr;
      fail({WaitResult::failed, w.index, registered.error().message});
      return false;
    }
  }
  confirmed_ = true;
  for (auto& w : workers_) {
    WaitFailure failure;
    if (!send_one(w, configure_message(spec_, w.index, db), transcript_, clock_, failure)) {
      fail(std::move(failure));
      return false;
    }
  }
  startup_steps_["registered_ns"] = ns_string(clock_.now_ns());
  if (!step("ready", startup_deadline, ready_)) return false;
  startup_steps_["ready_ns"] = ns_string(clock_.now_ns());
  return true;
}

// The canary: a recognisable call from every worker, before anything is released; no release
// without proof that every collector the mode runs saw every worker's.
bool RunExecution::verify_canaries(std::uint64_t startup_deadline) {
  if (!broadcast({{"type", "canary"}}) || !step("canary_done", startup_deadline, canary_)) {
    return false;
  }
  if (Status verified = collectors_.verify(
          std::min<std::uint64_t>(startup_deadline, clock_.now_ns() + kCanaryWaitNs));
      !verified.ok()) {
    fail({WaitResult::failed, 0, verified.error().message});
    return false;
  }
  startup_steps_["canaries_verified_ns"] = ns_string(clock_.now_ns());
  return true;
}

bool RunExecution::spawn_and_register(const std::string& db) {
  const std::uint32_t count = m_.workers[block_.point[static_cast<std::size_t>(Axis::workers)]];
  std::error_code ec;
  std::filesystem::create_directories(spec_.logs_dir, ec);
  if (Status prepared = collectors_.prepare(); !prepared.ok()) {
    fail({WaitResult::failed, 0, prepared.error().message});
    return false;
  }
  // Collectors attach to the admitted cohort before its first instruction, so all of startup is
  // traced.
  std::uint64_t startup_deadline = 0;
  if (!spawn_workers(count) || !admit_attach_release(startup_deadline)) return false;
  if (!register_workers(db, startup_deadline) || !verify_canaries(startup_deadline)) return false;
  scan();
  return true;
}

void RunExecution::teardown() {
  collectors_.boundary("teardown");
  const std::uint64_t start = clock_.now_ns();
  boundaries_["teardown_start_ns"] = ns_string(start);
  if (!status_) {
    // Orderly: ask each worker to close its connection and exit, within a bounded time.
    const std::uint64_t deadline =
        std::min<std::uint64_t>(run_deadline_, start + 10'000'000'000ULL);
    if (broadcast({{"type", "exit"}})) step("bye", deadline, bye_);
    for (auto& w : workers_) w.process->close_stdin();
    while (clock_.now_ns() < deadline) {
      bool all = true;
      for (auto& w : workers_) all = w.process->try_reap().has_value() && all;
      if (all) break;
      clock_.wait({}, 5);
    }
  }
  // Whatever is left of the group is killed. Workers still running are accounted for by their
  // exit status below; anything else (a process a worker forked) is a leftover.
  scan();
  std::vector<Json> leftovers;
  for (const auto& p :
       group_ > 1 ? spawner_.processes_in_group(group_) : std::vector<proc::ProcStat>()) {
    const bool worker = std::any_of(workers_.begin(), workers_.end(),
                                    [&](const WorkerLink& w) { return w.process->pid() == p.pid; });
    if (p.state == 'Z' || worker) continue;
    leftovers.push_back({{"pid", p.pid}, {"comm", p.comm}});
  }
  spawner_.signal_group(group_, SIGKILL);
  for (auto& w : workers_) {
    const auto status = w.process->kill_and_reap();
    collectors_.exited(w.process->pid(), status);
    if (!status_ && (status.signaled || status.code != 0)) {
      fail({WaitResult::failed, w.index,
            fmt::format("worker {} ended with {}", w.index, status.describe())});
    }
  }
  if (!leftovers.empty() && !status_) {
    fail({WaitResult::failed, 0,
          fmt::format("{} process(es) of the cohort were still running after teardown",
                      leftovers.size())});
  }
  record_.run["leftover_processes"] = leftovers;
  boundaries_["teardown_end_ns"] = ns_string(clock_.now_ns());
}

Json RunExecution::workers_json() const {
  Json out = Json::array();
  for (const auto& w : workers_) {
    Json j = {{"index", w.index}, {"pid", w.process->pid()}};
    const auto message_time = [&](const std::vector<Json>& got, const char* key) -> Json {
      if (w.index < got.size() && got[w.index].contains(key)) return got[w.index][key];
      return nullptr;
    };
    j["hello_t_ns"] = message_time(hello_, "t_ns");
    j["ready_t_ns"] = message_time(ready_, "t_ns");
    j["open_ns"] = message_time(ready_, "open_ns");
    j["canary_t_ns"] = message_time(canary_, "t_ns");
    j["warmup_done_t_ns"] = message_time(warmup_, "t_ns");
    j["measure_start_ns"] = message_time(measure_, "t_start_ns");
    j["measure_end_ns"] = message_time(measure_, "t_end_ns");
    j["teardown_ns"] = message_time(bye_, "teardown_ns");
    if (const auto& s = w.process->status()) {
      j["exit"] = {{"signaled", s->signaled},
                   {"code", s->code},
                   {"signal", s->signal},
                   {"description", s->describe()},
                   // The kernel's accounting of the whole process (wait4), not the worker's word.
                   {"user_ns", ns_string(s->user_ns)},
                   {"system_ns", ns_string(s->system_ns)},
                   {"max_rss_kib", s->max_rss_kib},
                   {"voluntary_switches", s->voluntary_switches},
                   {"involuntary_switches", s->involuntary_switches}};
    } else {
      j["exit"] = nullptr;
    }
    out.push_back(std::move(j));
  }
  return out;
}

// Release the measure phase and wait for its results; the harness's own CPU while the workers
// measured is kept beside them: it must not steal their time.
bool RunExecution::measure() {
  const std::uint64_t released = clock_.now_ns();
  boundaries_["warmup_end_ns"] = ns_string(released);
  scan();
  collectors_.boundary("measure");
  const auto cpu_before = process_cpu_times();
  boundaries_["measure_start_ns"] = ns_string(clock_.now_ns());
  const bool ok = broadcast({{"type", "measure"}}) &&
                  step("measure_done", run_deadline_, measure_) &&
                  step("result", run_deadline_, result_);
  const std::uint64_t measured = clock_.now_ns();
  const auto cpu_after = process_cpu_times();
  boundaries_["measure_end_ns"] = ns_string(measured);
  const std::uint64_t harness_ns =
      (cpu_after.user_ns - cpu_before.user_ns) + (cpu_after.system_ns - cpu_before.system_ns);
  const std::uint64_t window = measured - released;
  record_.run["harness_cpu_during_measure"] = {
      {"cpu_ns", ns_string(harness_ns)},
      {"window_ns", ns_string(window)},
      {"fraction_of_one_core",
       window == 0 ? 0.0 : static_cast<double>(harness_ns) / static_cast<double>(window)}};
  return ok;
}

// The workers' results held to the protocol's rules, the ones `jbench check-worker` names: each
// says ok, its identity, its configuration, the operations asked for, counts that add up; and
// the run as a whole does what its lane says (the rule the validator re-checks).
void RunExecution::check_results() {
  for (const auto& r : result_) {
    if (r.value("status", "") != "ok" && !status_) {
      std::string why = r.contains("conditions") ? r["conditions"].dump() : "(no conditions)";
      fail({WaitResult::failed, r.value("worker_index", std::size_t{0}),
            fmt::format("worker {} reported: {}", r.value("worker_index", 0), why)});
    }
  }
  const run_summaries::Asked asked{
      lane_label(), axis_label(Axis::connection),
      m_.measure.kind == Phase::Kind::operations ? std::optional(m_.measure.amount) : std::nullopt};
  for (std::size_t i = 0; i < result_.size() && !status_; ++i) {
    const auto problems = run_summaries::result_problems(result_[i], hello_[i], asked);
    if (!problems.empty()) {
      fail({WaitResult::failed, i,
            fmt::format("worker {}'s result breaks the protocol: {}", i,
                        fmt::join(problems, "; "))});
    }
  }
  // Single workers may starve or, in the mixed lane, draw one kind only.
  if (const Status mix =
          check_lane_mix(lane_label(), measured_count("reads"), measured_count("writes"));
      !mix && !status_) {
    fail({WaitResult::failed, 0, mix.error().message});
  }
}

// The run's record: its status, the collectors' entries and raw documents, its boundaries, cohort
// and workers, the results and the transcript.
RunRecord RunExecution::record() {
  record_.run["trace_mode"] = collectors_.trace_mode();
  record_.raw_documents = collectors_.raw_documents();
  record_.status = status_.value_or(RunStatus::ok);
  if (spec_.noise_after) record_.run["noise_after"] = spec_.noise_after();
  record_.run["boundaries"] = boundaries_;
  record_.run["startup_steps"] = startup_steps_;
  record_.run["cohort"] = cohort_.to_json();
  record_.run["process_group"] = group_;
  record_.run["workers"] = workers_json();
  record_.run["output_bytes"] = workers_.empty() ? 0 : output_bytes(workers_, limits_);
  for (auto& r : result_) {
    if (!r.is_null()) record_.results.push_back(std::move(r));
  }
  record_.transcript = transcript_.text();
  return std::move(record_);
}

RunRecord RunExecution::execute() {
  const std::uint64_t start = clock_.now_ns();
  run_deadline_ = start + std::uint64_t{m_.limits.run_timeout_s} * 1'000'000'000ULL;
  limits_.max_output_bytes = m_.limits.output_mib * 1024 * 1024;
  record_.run = Json::object();
  if (spec_.noise_before) record_.run["noise_before"] = spec_.noise_before();

  boundaries_["startup_start_ns"] = ns_string(clock_.now_ns());
  const auto cpu_at_start = process_cpu_times();
  CpuTimes cpu_after_startup = cpu_at_start;
  std::string db;
  bool ok = prepare_database(db) && spawn_and_register(db);
  if (ok) {
    // Release: every worker runs its warmup, then waits at the barrier.
    collectors_.boundary("warmup");
    boundaries_["warmup_start_ns"] = ns_string(clock_.now_ns());
    cpu_after_startup = process_cpu_times();
    ok = broadcast({{"type", "start"}}) && step("warmup_done", run_deadline_, warmup_);
  }
  if (ok && spec_.before_measure) {
    // Half of what is left of the run's time, so a peer that never comes cannot time it out.
    const std::uint64_t now = clock_.now_ns();
    record_.run["lockstep"] =
        spec_.before_measure(now < run_deadline_ ? (run_deadline_ - now) / 2 : 0);
  }
  if (ok) ok = measure();
  // The workers are alive and idle now, outside every measured phase: the moment to read what
  // they are made of (their binaries and mapped libraries) without charging it to a phase.
  if (ok && spec_.on_measured && !workers_.empty()) {
    std::vector<pid_t> pids;
    for (const auto& w : workers_) pids.push_back(w.process->pid());
    spec_.on_measured(pids);
  }
  const auto cpu_before_teardown = process_cpu_times();
  teardown();
  const auto cpu_after_teardown = process_cpu_times();
  const auto spent = [](const CpuTimes& a, const CpuTimes& b) {
    return ns_string((b.user_ns - a.user_ns) + (b.system_ns - a.system_ns));
  };
  // The harness's own CPU around the measured phases: spawning, registering, configuring and
  // reaping the cohort (what a run costs the host besides the workload).
  record_.run["harness_cpu"] = {{"startup_ns", spent(cpu_at_start, cpu_after_startup)},
                                {"teardown_ns", spent(cpu_before_teardown, cpu_after_teardown)}};
  if (ok) check_results();
  // The collectors end after the cohort: a required one that failed fails the run.
  if (auto failed = collectors_.finish(boundaries_, cohort_, confirmed_); !failed.empty()) {
    fail({WaitResult::failed, 0, failed});
  }
  return record();
}

}  // namespace

RunRecord execute_run(const RunSpec& spec, const proc::InterruptWatch& interrupt) {
  RunExecution execution(spec, interrupt);
  return execution.execute();
}

}  // namespace jbench::run
