// What following the cohort off the CPU adds to each context switch (docs/collectors/syscall.md,
// "Off the CPU"): a two-process pipe ping-pong in which the cohort's process waits for each ball
// in poll(2), which no tracer counts as a call, so every round trip takes it off the CPU
// (blocked), wakes it (runnable) and runs it again. Side by side, in one run: no tracer; the
// compiled tracer scoped to it with the off-CPU programs inert (system calls only); and with
// them following it. The difference of the last two per round trip is the cost of one switch
// out, one wake-up and one switch in of a followed thread.
//
//   build/bin/jbench-bench-context-switch          (as root: the compiled tracer needs it)
//
// Each iteration is one batch of round trips, timed by the benchmark's process (outside the
// cohort); the figure reported is per round trip.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "jbench/common/clock.h"
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
  std::string why;
  TracerOptions options;
  options.off_cpu = off_cpu;
  auto tracer = LibbpfTracer::open(why, options);
  if (!tracer) {
    state.SkipWithError(("the compiled tracer cannot load: " + why).c_str());
    return;
  }
  {
    Partner partner;
    if (auto problem = tracer->begin_run({partner.pid()}); !problem.empty()) {
      state.SkipWithError(problem.c_str());
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

}  // namespace

BENCHMARK(untraced)->UseManualTime()->Iterations(30)->Unit(benchmark::kMillisecond);
BENCHMARK(syscalls_only)->UseManualTime()->Iterations(30)->Unit(benchmark::kMillisecond);
BENCHMARK(following_off_cpu)->UseManualTime()->Iterations(30)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
