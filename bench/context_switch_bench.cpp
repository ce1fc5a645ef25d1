// What following the cohort off the CPU adds to each context switch (docs/collectors/syscall.md,
// "Off the CPU"): a two-process pipe ping-pong in which the cohort's process waits for each ball
// in poll(2), which no tracer counts as a call, so every round trip takes it off the CPU
// (blocked), wakes it (runnable) and runs it again. Side by side, in one run: no tracer; the
// compiled tracer scoped to it with the off-CPU programs inert (system calls only); with them
// following it; and the tools a user would otherwise pick for the same question, each observing
// the same loop: `perf sched record -a` (every scheduler event of the host, to a file) and a
// bpftrace off-CPU script (sched_switch, the partner's user stack at each switch out, summed by
// stack at each switch in). The difference of a case and `untraced` per round trip is that
// observer's cost of one switch out, one wake-up and one switch in.
//
//   build/bin/jbench-bench-context-switch          (as root: the tracers need it)
//
// Each iteration is one batch of round trips, timed by the benchmark's process (outside the
// cohort); the figure reported is per round trip. A tool that is missing or cannot attach skips
// its case with the reason.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <string>

#include "jbench/common/clock.h"
#include "jbench/common/path_search.h"
#include "jbench/proc/child_process.h"
#include "libbpf_tracer.h"
#include "syscall_table.h"

namespace {

using jbench::collectors::syscall_detail::call_by_id;
using jbench::collectors::syscall_detail::LibbpfTracer;
using jbench::collectors::syscall_detail::TracerOptions;

constexpr int kRoundTrips = 10'000;

// Blocks in poll (untraced) until `fd` is readable, then takes the byte with read (traced).
bool await_ball(int fd) {
  pollfd p{fd, POLLIN, 0};
  char ball = 0;
  return ::poll(&p, 1, -1) == 1 && ::read(fd, &ball, 1) == 1;
}

// The cohort's process: returns every ball it is thrown, until its pipe closes.
class Partner {
 public:
  Partner() {
    int to[2], from[2];
    if (::pipe2(to, O_CLOEXEC) != 0 || ::pipe2(from, O_CLOEXEC) != 0) std::abort();
    const pid_t parent = ::getpid();
    pid_ = ::fork();
    if (pid_ == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(1);
      ::close(to[1]);  // so that the parent's close is this end's EOF
      ::close(from[0]);
      const char ball = 'b';
      while (await_ball(to[0]) && ::write(from[1], &ball, 1) == 1) {
      }
      ::_exit(0);
    }
    ::close(to[0]);
    ::close(from[1]);
    throw_ = to[1];
    catch_ = from[0];
  }
  ~Partner() {
    ::close(throw_);
    ::close(catch_);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  pid_t pid() const { return pid_; }
  // One batch of round trips; its nanoseconds.
  std::uint64_t rally() {
    const char ball = 'b';
    const std::uint64_t start = jbench::monotonic_ns();
    for (int i = 0; i < kRoundTrips; ++i) {
      if (::write(throw_, &ball, 1) != 1 || !await_ball(catch_)) std::abort();
    }
    return jbench::monotonic_ns() - start;
  }

 private:
  pid_t pid_ = -1;
  int throw_ = -1;
  int catch_ = -1;
};

void rallies(benchmark::State& state, Partner& partner) {
  std::uint64_t total = 0;
  for (auto _ : state) {
    const std::uint64_t ns = partner.rally();
    state.SetIterationTime(static_cast<double>(ns) / 1e9);
    total += ns;
  }
  const auto trips = static_cast<double>(state.iterations()) * kRoundTrips;
  state.counters["ns_per_round_trip"] = benchmark::Counter(static_cast<double>(total) / trips);
  state.SetItemsProcessed(static_cast<std::int64_t>(trips));
}

void untraced(benchmark::State& state) {
  Partner partner;
  rallies(state, partner);
}

// The compiled tracer in light detail, scoped to the partner; `off_cpu` as TracerOptions says.
void traced(benchmark::State& state, bool off_cpu) {
  TracerOptions options;
  options.off_cpu = off_cpu;
  auto opened = LibbpfTracer::open(options);
  if (!opened) {
    state.SkipWithError(("the compiled tracer cannot load: " + opened.error().message).c_str());
    return;
  }
  auto& tracer = *opened;
  {
    Partner partner;
    if (const jbench::Status begun = tracer->begin_run({partner.pid()}); !begun) {
      state.SkipWithError(begun.error().message.c_str());
      return;
    }
    tracer->set_phase(2);
    rallies(state, partner);
  }
  // What the tracer saw, so a reader can check it followed what it was meant to.
  const auto end = tracer->end_run();
  double intervals = 0;
  for (const auto& [key, t] : end.totals) {
    if (call_by_id(key.call)->off_cpu) intervals += static_cast<double>(t.count);
  }
  state.counters["off_cpu_intervals"] = benchmark::Counter(intervals);
  state.counters["lost"] = benchmark::Counter(static_cast<double>(end.lost));
}

void syscalls_only(benchmark::State& state) { traced(state, false); }
void following_off_cpu(benchmark::State& state) { traced(state, true); }

// A directory of its own for an outside tool's files, removed with everything in it.
class Scratch {
 public:
  Scratch() {
    char name[] = "/tmp/jbench-ctxsw-XXXXXX";
    if (::mkdtemp(name) == nullptr) std::abort();
    dir_ = name;
  }
  ~Scratch() { std::filesystem::remove_all(dir_); }
  std::string path(const char* file) const { return dir_ + "/" + file; }

 private:
  std::string dir_;
};

// An outside tool observing the rallies: started, known to be observing before the first one
// (an event it gives, never a sleep), stopped with SIGINT after the last, as a user stops it.
struct Observer {
  std::unique_ptr<jbench::proc::ChildProcess> process;
  std::string error;  // why it is not observing
};

void stop(jbench::proc::ChildProcess& p) {
  ::kill(p.pid(), SIGINT);
  if (!p.reap_within(60'000)) p.kill_and_reap();
}

// perf sched record, started with its events disabled and told through its control FIFO to
// enable them: its "ack" is the proof it records.
Observer start_perf_sched(const Scratch& dir) {
  Observer o;
  const std::string perf = jbench::find_on_path("perf");
  if (perf.empty()) return {nullptr, "perf is not on PATH"};
  const std::string ctl = dir.path("ctl"), ack = dir.path("ack");
  if (::mkfifo(ctl.c_str(), 0600) != 0 || ::mkfifo(ack.c_str(), 0600) != 0) {
    return {nullptr, "cannot make the control FIFOs"};
  }
  // Opened read-write, a FIFO never blocks its opener: the command waits in it for perf.
  const int ctl_fd = ::open(ctl.c_str(), O_RDWR | O_CLOEXEC);
  const int ack_fd = ::open(ack.c_str(), O_RDWR | O_CLOEXEC);
  jbench::proc::SpawnSpec spec;
  spec.executable = perf;
  spec.args = {"sched",
               "record",
               "-a",
               "-o",
               dir.path("perf.data"),
               "-D",
               "-1",
               "--control",
               "fifo:" + ctl + "," + ack};
  spec.stderr_path = dir.path("perf.stderr");
  auto spawned = jbench::proc::ChildProcess::spawn(spec);
  if (spawned) {
    o.process = std::move(*spawned);
  } else {
    o.error = "cannot start perf: " + spawned.error().message;
  }
  const std::string enable = "enable\n";
  pollfd p{ack_fd, POLLIN, 0};
  char answer[8] = {};
  if (o.process &&
      (::write(ctl_fd, enable.data(), enable.size()) != static_cast<ssize_t>(enable.size()) ||
       ::poll(&p, 1, 60'000) != 1 || ::read(ack_fd, answer, sizeof answer - 1) <= 0 ||
       std::string(answer).rfind("ack", 0) != 0)) {
    o.error = "perf sched record never acknowledged 'enable' (see its stderr)";
  }
  ::close(ctl_fd);
  ::close(ack_fd);
  return o;
}

// A bpftrace off-CPU script on the partner: its BEGIN line comes once every probe is attached.
// END clears the maps: what it would print is the tool's own business after the measurement.
Observer start_bpftrace_off_cpu(const Scratch& dir, pid_t partner) {
  Observer o;
  const std::string bpftrace = jbench::find_on_path("bpftrace");
  if (bpftrace.empty()) return {nullptr, "bpftrace is not on PATH"};
  std::ofstream(dir.path("off_cpu.bt")) << R"(BEGIN { printf("ready\n"); }
tracepoint:sched:sched_switch /args->prev_pid == $1/ {
  @since[args->prev_pid] = nsecs;
  @stack[args->prev_pid] = ustack;
}
tracepoint:sched:sched_switch /@since[args->next_pid]/ {
  @off_ns[@stack[args->next_pid]] = sum(nsecs - @since[args->next_pid]);
  delete(@since[args->next_pid]);
}
END { clear(@since); clear(@stack); clear(@off_ns); }
)";
  jbench::proc::SpawnSpec spec;
  spec.executable = bpftrace;
  spec.args = {dir.path("off_cpu.bt"), std::to_string(partner)};
  spec.stderr_path = dir.path("bpftrace.stderr");
  auto spawned = jbench::proc::ChildProcess::spawn(spec);
  if (!spawned) return {nullptr, "cannot start bpftrace: " + spawned.error().message};
  o.process = std::move(*spawned);
  const std::uint64_t deadline = jbench::monotonic_ns() + 60'000'000'000ull;
  std::string line;
  while (o.process->next_line(line, deadline) == jbench::proc::ChildProcess::LineWait::line) {
    if (line == "ready") return o;
  }
  o.error = "bpftrace never said it was attached (see its stderr)";
  return o;
}

// The rallies under an outside observer, started on the partner first; false (and the case
// skipped with the reason) when it is not observing.
bool rallies_observed(benchmark::State& state, const Scratch& dir,
                      const std::function<Observer(const Scratch&, pid_t)>& start) {
  Partner partner;
  Observer o = start(dir, partner.pid());
  if (o.error.empty()) rallies(state, partner);
  if (o.process) stop(*o.process);
  if (!o.error.empty()) state.SkipWithError(o.error.c_str());
  return o.error.empty();
}

void perf_sched_record(benchmark::State& state) {
  Scratch dir;
  const auto start = [](const Scratch& d, pid_t) { return start_perf_sched(d); };
  if (!rallies_observed(state, dir, start)) return;
  std::error_code ec;
  state.counters["perf_data_bytes"] = benchmark::Counter(
      static_cast<double>(std::filesystem::file_size(dir.path("perf.data"), ec)));
}

void bpftrace_off_cpu(benchmark::State& state) {
  Scratch dir;
  rallies_observed(state, dir, start_bpftrace_off_cpu);
}

}  // namespace

BENCHMARK(untraced)->UseManualTime()->Iterations(30)->Unit(benchmark::kMillisecond);
BENCHMARK(syscalls_only)->UseManualTime()->Iterations(30)->Unit(benchmark::kMillisecond);
BENCHMARK(following_off_cpu)->UseManualTime()->Iterations(30)->Unit(benchmark::kMillisecond);
BENCHMARK(perf_sched_record)->UseManualTime()->Iterations(30)->Unit(benchmark::kMillisecond);
BENCHMARK(bpftrace_off_cpu)->UseManualTime()->Iterations(30)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
