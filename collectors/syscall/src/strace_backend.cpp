// The strace backend: ptrace, no privilege beyond attaching to one's own processes. strace is
// attached with -p to every registered worker (-f follows their forks); attached means every
// thread of every worker names strace as its tracer. Phases come from time: strace stamps each
// call with CLOCK_REALTIME at entry, converted to CLOCK_MONOTONIC with an offset measured at the
// start, and a call belongs to the last phase marked before it.
#include <fmt/format.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "backend.h"
#include "host_tools.h"
#include "incarnations.h"
#include "jbench/common/clock.h"
#include "jbench/proc/proc_stat.h"
#include "strace_output.h"
#include "summary.h"
#include "syscall_table.h"

namespace jbench::collectors::syscall_detail {
namespace {

constexpr const char* kStraceOutput = "syscall.strace.txt";
constexpr const char* kStraceStderr = "syscall.strace.stderr.txt";
// A step of CLOCK_REALTIME larger than this during the run makes strace's times unplaceable.
constexpr std::int64_t kMaxClockDriftNs = 1'000'000;

struct ThreadOwner {
  pid_t pid = 0;
  std::uint64_t start_time_ticks = 0;
  pid_t parent = 0;
  std::uint64_t first_t_ns = 0;
};

bool process_alive(pid_t pid) {
  auto stat = proc::read_proc_stat(pid);
  return stat && stat->state != 'Z' && stat->state != 'X';
}

class StraceBackend final : public Backend {
 public:
  StraceBackend(BackendContext context, std::string executable)
      : ctx_(std::move(context)), exe_(std::move(executable)) {}

  std::string_view name() const override { return "strace"; }
  std::string version() const override { return version_; }

  jbench::Status attach(std::uint64_t deadline_ns) override {
    version_ = tool_version(exe_, "-V");
    offset_ = measure_clock_offset();
    boottime_minus_monotonic_ns_ = boottime_minus_monotonic_ns();
    std::string calls;
    for (const auto& c : traced_calls()) calls += fmt::format("?{},", c.name);
    for (const char* c : kCreationCalls) calls += fmt::format("?{},", c);
    calls += "?faccessat,?faccessat2,?access";  // the canary; '?': not an error where absent
    BackendLaunch launch;
    launch.executable = exe_;
    launch.args = {"-f",
                   "-X",
                   "raw",
                   "-y",
                   "--absolute-timestamps=format:unix,precision:ns",
                   "--syscall-times=ns",
                   "-s",
                   "256",
                   "-e",
                   "trace=" + calls,
                   "-e",
                   "signal=none",
                   "-o",
                   "/dev/stdout"};
    for (const auto& p : ctx_.cohort) {
      launch.args.push_back("-p");
      launch.args.push_back(std::to_string(p.pid));
      std::lock_guard lock(owners_mu_);
      owners_[p.pid] = ThreadOwner{p.pid, p.start_time_ticks, 0, 0};
    }
    launch.output_path = ctx_.raw_dir + "/" + kStraceOutput;
    launch.stderr_path = ctx_.raw_dir + "/" + kStraceStderr;
    launch.max_output_bytes = ctx_.max_output_bytes;
    launch.on_line = [this](std::string_view line) { on_line(line); };
    auto launched = BackendProcess::launch(std::move(launch));
    if (!launched) return attach_failed("strace did not start: " + launched.error().message);
    process_ = std::move(*launched);
    for (;;) {
      bool all = true;
      for (const auto& p : ctx_.cohort) all = all && all_threads_traced_by(p.pid, process_->pid());
      if (all) {
        own_threads_of_cohort();
        return {};
      }
      if (!process_->running()) {
        return attach_failed(
            fmt::format("strace exited before it attached (see raw/{})", kStraceStderr));
      }
      if (monotonic_ns() >= deadline_ns) {
        process_->stop(monotonic_ns() + 2'000'000'000ULL);
        return attach_failed("strace did not attach to every worker within the attach timeout");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }

  bool launched() const override { return process_ != nullptr; }
  pid_t pid() const override { return process_->pid(); }
  bool alive() override { return process_ && process_->running(); }
  void mark_phase(int /*phase: placed by time*/) override {}

  jbench::Status add_process(const CohortProcess& p) override {
    {
      std::lock_guard lock(owners_mu_);
      auto& owner = owners_[p.pid];
      owner.pid = p.pid;
      owner.start_time_ticks = p.start_time_ticks;
    }
    if (process_ && !all_threads_traced_by(p.pid, process_->pid()) && process_alive(p.pid)) {
      return attach_failed(
          fmt::format("strace does not trace pid {} (only forks of traced processes are)", p.pid));
    }
    return {};
  }

  BackendEnd stop(std::uint64_t deadline_ns) override {
    // strace exits 0 by itself once every tracee is gone (the harness stops collectors after
    // reaping the cohort); interrupted while tracing, it ends by SIGINT, which is recorded as
    // such. So: give it the chance to end on its own first.
    std::vector<pid_t> pids;
    {
      std::lock_guard lock(owners_mu_);
      for (const auto& [tid, owner] : owners_) pids.push_back(owner.pid);
    }
    while (process_->running() && monotonic_ns() < deadline_ns &&
           std::none_of(pids.begin(), pids.end(), process_alive)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    interrupted_live_ = process_->running() && std::any_of(pids.begin(), pids.end(), process_alive);
    BackendEnd end = process_->stop(deadline_ns);
    // Ending on its own with 0 after its tracees ended is strace's orderly end, not a death.
    if (end.before_stop && !end.status.signaled && end.status.code == 0 &&
        std::none_of(pids.begin(), pids.end(), process_alive)) {
      end.before_stop = false;
    }
    offset_at_stop_ = measure_clock_offset();
    return end;
  }

  Observed collect(const std::vector<PhaseMark>& marks) override {
    StraceReader reader(offset_.realtime_minus_monotonic_ns);
    std::ifstream in(ctx_.raw_dir + "/" + kStraceOutput);
    std::string line;
    while (std::getline(in, line)) reader.line(line);
    StraceObservations obs = reader.finish();
    Observed out;
    out.per_call = ctx_.detail == Detail::full;
    out.malformed = obs.malformed;
    out.malformed_examples = std::move(obs.malformed_examples);
    out.in_progress = obs.in_progress;
    if (process_->overlong_lines()) out.problems.push_back("strace wrote a line over 1 MiB");
    if (interrupted_live_) {
      out.problems.push_back(
          "strace was interrupted while its tracees still ran: stop the collector after the "
          "cohort has exited");
    }
    const std::int64_t drift =
        offset_at_stop_.realtime_minus_monotonic_ns - offset_.realtime_minus_monotonic_ns;
    if (std::llabs(drift) > kMaxClockDriftNs) {
      out.problems.push_back(fmt::format(
          "CLOCK_REALTIME moved by {} ns against CLOCK_MONOTONIC during the run: strace's "
          "timestamps cannot be placed in phases",
          drift));
    }
    std::lock_guard lock(owners_mu_);
    owners_from_creations(obs.creations);
    attribute_calls(obs.calls, marks, out);
    for (auto& k : obs.canaries) {
      auto owner = owners_.find(k.tid);
      if (owner == owners_.end() || owner->second.pid == 0) continue;
      k.pid = owner->second.pid;
      out.canaries.push_back(std::move(k));
    }
    for (const auto& [tid, owner] : owners_) {
      if (tid == owner.pid && owner.first_t_ns != 0) {
        out.processes.push_back(
            {owner.pid, owner.start_time_ticks, owner.parent, owner.first_t_ns, owner.parent != 0});
      }
    }
    out.header = {
        {"clock_conversion",
         {{"from", "CLOCK_REALTIME"},
          {"realtime_minus_monotonic_ns", std::to_string(offset_.realtime_minus_monotonic_ns)},
          {"uncertainty_ns", std::to_string(offset_.uncertainty_ns)},
          {"drift_at_stop_ns", std::to_string(drift)}}}};
    out.entry = {{"backend_version", version_},
                 {"clock_conversion", out.header["clock_conversion"]},
                 {"calls_in_progress", obs.in_progress},
                 {"forks_seen", forks_seen(obs.creations)},
                 {"forks_from_records", forks_from_records_}};
    return out;
  }

  // Each call's process (its thread's owner) and phase, kept whole or added to the totals; a
  // thread no process claims is said, never guessed. Under owners_mu_.
  void attribute_calls(std::vector<CallRecord>& calls, const std::vector<PhaseMark>& marks,
                       Observed& out) {
    std::map<pid_t, std::uint64_t> unattributed;  // tid -> calls
    std::map<pid_t, std::uint64_t> last_t;        // tid -> last entry time
    bool stepped = false;
    for (auto& c : calls) {
      auto owner = owners_.find(c.tid);
      if (owner == owners_.end() || owner->second.pid == 0) {
        ++unattributed[c.tid];
        continue;
      }
      c.pid = owner->second.pid;
      c.phase = phase_at(marks, c.t_ns);
      auto& last = last_t[c.tid];
      stepped = stepped || c.t_ns < last;
      last = std::max(last, c.t_ns);
      if (out.per_call) {
        out.calls.push_back(std::move(c));
      } else {
        add_to_totals(out.totals, c);
      }
    }
    if (stepped) {
      out.problems.push_back(
          "strace's timestamps run backwards within a thread: the realtime "
          "clock stepped during the run");
    }
    for (const auto& [tid, n] : unattributed) {
      out.problems.push_back(fmt::format(
          "{} call(s) of thread {} cannot be attributed: it ended before its process could be "
          "read from /proc, and strace recorded no clone or fork that made it",
          n, tid));
    }
  }

  std::vector<std::string> raw_files() const override { return {kStraceOutput, kStraceStderr}; }
  std::uint64_t output_bytes() const override { return process_ ? process_->output_bytes() : 0; }
  bool over_bound() const override { return process_ && process_->over_bound(); }

 private:
  static std::size_t forks_seen(const std::vector<StraceCreation>& creations) {
    return static_cast<std::size_t>(
        std::count_if(creations.begin(), creations.end(), [](const auto& c) { return !c.thread; }));
  }

  static int phase_at(const std::vector<PhaseMark>& marks, std::uint64_t t_ns) {
    int phase = 0;
    for (const auto& m : marks) {
      if (m.t_ns <= t_ns) phase = m.phase;
    }
    return phase;
  }

  static void add_to_totals(std::map<TotalsKey, Totals>& totals, const CallRecord& c) {
    Totals& t = totals[{c.pid, c.phase, c.call}];
    const bool failed = c.result && *c.result < 0;
    ++t.count;
    t.errors += failed ? 1 : 0;
    t.total_ns += c.duration_ns;
    t.max_ns = std::max(t.max_ns, c.duration_ns);
    ++t.log2_buckets[log2_bucket(c.duration_ns)];
    if (c.request) {
      ++t.requests[*c.request];
      if (failed) ++t.request_errors[*c.request];
      t.request_ns[*c.request] += c.duration_ns;
    }
  }

  // On the drain thread: learn each thread's process the moment it first speaks, while it
  // surely still exists; and note canaries for await_canaries().
  void on_line(std::string_view line) {
    const auto tid = strace_line_tid(line);
    if (!tid) return;
    ThreadOwner owner;
    {
      std::lock_guard lock(owners_mu_);
      auto it = owners_.find(*tid);
      if (it == owners_.end()) {
        it = owners_.emplace(*tid, resolve(*tid)).first;
      }
      if (it->second.first_t_ns == 0) it->second.first_t_ns = monotonic_ns();
      owner = it->second;
    }
    if (owner.pid == 0 || !strace_line_is_canary(line)) return;
    StraceReader one(offset_.realtime_minus_monotonic_ns);
    one.line(line);
    auto obs = one.finish();
    if (obs.canaries.empty()) return;
    CanaryHit k = obs.canaries.front();
    k.pid = owner.pid;
    std::lock_guard lock(ctx_.live->mu);
    ctx_.live->canaries.try_emplace(k.pid, k);
    ctx_.live->changed.notify_all();
  }

  // Every thread the cohort's processes had when strace attached: known from the start, so a
  // thread that ends before its first line is read still has its process.
  void own_threads_of_cohort() {
    std::lock_guard lock(owners_mu_);
    for (const auto& p : ctx_.cohort) {
      const ThreadOwner process = owners_[p.pid];
      for (const pid_t tid : threads_of(p.pid)) {
        auto [it, fresh] = owners_.try_emplace(tid, process);
        if (fresh) it->second.first_t_ns = 0;
      }
    }
  }

  // The threads and processes the live resolution could not read from /proc (they ended before
  // their first line was read: on a loaded machine the reader can fall behind strace), from
  // strace's own record of the clone or fork that made them. Exact for a thread; a process's
  // start time is the clock tick its fork began in, as strace timed it (the kernel takes it
  // within that call). In output order a creator's own creation comes first, so one pass
  // resolves a chain.
  void owners_from_creations(const std::vector<StraceCreation>& creations) {
    for (const auto& made : creations) {
      auto creator = owners_.find(made.creator_tid);
      if (creator == owners_.end() || creator->second.pid == 0) continue;
      ThreadOwner& owner = owners_[made.child_tid];
      if (owner.pid != 0) continue;  // read from /proc while it lived
      if (made.thread) {
        owner = creator->second;
        owner.first_t_ns = 0;
      } else {
        owner = ThreadOwner{made.child_tid,
                            boottime_ns_to_ticks(made.t_ns + boottime_minus_monotonic_ns_),
                            creator->second.pid, made.t_ns};
        ++forks_from_records_;
      }
    }
  }

  ThreadOwner resolve(pid_t tid) const {
    ThreadOwner owner;
    auto tgid = thread_group_of(tid);
    if (!tgid) return owner;  // gone already: its calls will be reported unattributable
    auto known = owners_.find(*tgid);
    if (known != owners_.end() && known->second.start_time_ticks != 0) {
      owner = known->second;  // a thread of a known process
      owner.first_t_ns = 0;
      return owner;
    }
    auto stat = proc::read_proc_stat(*tgid);
    if (!stat) return owner;
    owner.pid = *tgid;
    owner.start_time_ticks = stat->start_time_ticks;
    owner.parent = stat->ppid;
    return owner;
  }

  BackendContext ctx_;
  std::string exe_;
  std::string version_;
  ClockOffset offset_;
  std::uint64_t boottime_minus_monotonic_ns_ = 0;
  std::uint64_t forks_from_records_ = 0;  // processes resolved by owners_from_creations
  ClockOffset offset_at_stop_;
  bool interrupted_live_ = false;
  std::unique_ptr<BackendProcess> process_;
  mutable std::mutex owners_mu_;
  std::map<pid_t, ThreadOwner> owners_;  // tid -> its process
};

}  // namespace

std::unique_ptr<Backend> make_strace_backend(BackendContext context, std::string executable) {
  return std::make_unique<StraceBackend>(std::move(context), std::move(executable));
}

}  // namespace jbench::collectors::syscall_detail
