// What the syscall collector adds to each traced call, per backend and detail: a worker process
// makes pread64(fd, 1 byte) calls in a tight loop, timing batches with the vDSO clock, while
// nothing observes it; or empty bpftrace programs on every system call (the floor any tracer of
// every call pays); or the compiled tracer loaded but between runs (idle), light (libbpf,
// in-kernel per-CPU maps) or full (a binary record per call through a ring buffer); bpftrace
// light (in-kernel maps) or full (one output line per call); DTrace light (in-kernel
// aggregations) or full (one output line per call; these two skip saying why where no DTrace is
// found: $JBENCH_DTRACE); or strace (ptrace). Each benchmark iteration is one batch; the time
// reported is per call. libbpf_consumer is the full-detail consumer's own speed: records per
// second it takes from the ring and writes to the records file, on one core.
//
//   build/bin/jbench-bench-syscall                       (as root for the bpftrace cases)
//   build/bin/jbench-bench-syscall --benchmark_filter=light
//
// The worker is a fork of this program that takes its orders through a pipe: one read and one
// write of the pipe per batch are traced too, i.e. 2 calls in kBatch + 2.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "jbench/collectors/syscall/syscall_collector.h"
#include "jbench/common/clock.h"
#include "jbench/common/path_search.h"
#include "jbench/proc/child_process.h"
#include "jbench/proc/proc_stat.h"
#ifdef JBENCH_HAVE_LIBBPF
#include "libbpf_tracer.h"
#endif

namespace {

using jbench::collectors::CohortProcess;
using jbench::collectors::SyscallCollector;
using jbench::collectors::SyscallDetail;
using jbench::collectors::SyscallOptions;

constexpr std::uint64_t kBatch = 20'000;

bool read_all(int fd, void* data, std::size_t size) {
  auto* p = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t n = ::read(fd, p, size);
    if (n <= 0) return false;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

bool write_all(int fd, const void* data, std::size_t size) {
  return ::write(fd, data, size) == static_cast<ssize_t>(size);
}

// The observed worker: a forked child that, per order N, makes N pread64 calls and answers with
// the nanoseconds they took. Order 0: the canary; order UINT64_MAX: exit.
class Worker {
 public:
  explicit Worker(const std::string& file) {
    int to_child[2], from_child[2];
    if (::pipe2(to_child, O_CLOEXEC) != 0 || ::pipe2(from_child, O_CLOEXEC) != 0) std::abort();
    const pid_t parent = ::getpid();
    pid_ = ::fork();
    if (pid_ == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(1);
      serve(to_child[0], from_child[1], file);
    }
    ::close(to_child[0]);
    ::close(from_child[1]);
    orders_ = to_child[1];
    answers_ = from_child[0];
  }
  ~Worker() {
    const std::uint64_t quit = UINT64_MAX;
    write_all(orders_, &quit, sizeof quit);
    ::close(orders_);
    ::close(answers_);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  pid_t pid() const { return pid_; }
  std::uint64_t order(std::uint64_t n) {
    std::uint64_t ns = 0;
    if (!write_all(orders_, &n, sizeof n) || !read_all(answers_, &ns, sizeof ns)) std::abort();
    return ns;
  }

 private:
  [[noreturn]] static void serve(int orders, int answers, const std::string& file) {
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    char byte = 0;
    for (std::uint64_t n = 0; read_all(orders, &n, sizeof n) && n != UINT64_MAX;) {
      const std::uint64_t start = jbench::monotonic_ns();
      if (n == 0) {
        ::syscall(SYS_faccessat, AT_FDCWD, "/jbench-canary/syscall-bench", F_OK);
      }
      for (std::uint64_t i = 0; i < n; ++i) ::pread(fd, &byte, 1, 0);
      const std::uint64_t ns = jbench::monotonic_ns() - start;
      if (!write_all(answers, &ns, sizeof ns)) break;
    }
    ::_exit(0);
  }

  pid_t pid_ = -1;
  int orders_ = -1;
  int answers_ = -1;
};

std::uint64_t start_time_ticks(pid_t pid) {
  const auto stat = jbench::proc::read_proc_stat(pid);
  return stat ? stat->start_time_ticks : 0;
}

// A fresh directory for one benchmark, holding the one-line file the worker reads.
std::string bench_dir(const char* name) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / (name + std::to_string(getpid()))).string();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  if (std::FILE* f = std::fopen((dir + "/data").c_str(), "w")) {
    std::fputs("jbench", f);
    std::fclose(f);
  }
  return dir;
}

// The benchmark's iterations, one batch each, and the per-call figures: the mean, and the
// fastest batch (what the tracing costs when nothing else on the host interferes).
void measure_batches(benchmark::State& state, Worker& worker) {
  std::uint64_t total_ns = 0;
  std::uint64_t best_ns = UINT64_MAX;
  std::uint64_t calls = 0;
  for (auto _ : state) {
    const std::uint64_t ns = worker.order(kBatch);
    state.SetIterationTime(static_cast<double>(ns) / 1e9);
    total_ns += ns;
    best_ns = std::min(best_ns, ns);
    calls += kBatch;
  }
  state.counters["ns_per_call"] =
      benchmark::Counter(calls ? static_cast<double>(total_ns) / static_cast<double>(calls) : 0);
  state.counters["best_ns_per_call"] =
      benchmark::Counter(calls ? static_cast<double>(best_ns) / static_cast<double>(kBatch) : 0);
  state.SetItemsProcessed(static_cast<std::int64_t>(calls));
}

void traced_calls(benchmark::State& state, const char* backend, SyscallDetail detail) {
  const std::string dir = bench_dir("jbench-bench-syscall-");
  const std::string file = dir + "/data";
  nlohmann::json entry;
  {
    auto owned = std::make_unique<Worker>(file);
    Worker& worker = *owned;
    std::unique_ptr<SyscallCollector> collector;
    if (*backend) {
      SyscallOptions options;
      options.detail = detail;
      options.backend = backend;
      options.raw_dir = dir + "/raw";
      options.run_id = "bench";
      options.boot_id = "bench";
      options.max_output_bytes = 1ULL << 30;
      collector = SyscallCollector::start(
          options, {CohortProcess{0, worker.pid(), start_time_ticks(worker.pid())}});
      worker.order(0);
      if (!collector->await_canaries(jbench::monotonic_ns() + 10'000'000'000ULL)) {
        entry = collector->stop(jbench::monotonic_ns() + 10'000'000'000ULL);
        state.SkipWithError(
            ("the collector did not attach: " + entry.value("reason", std::string("?"))).c_str());
        std::filesystem::remove_all(dir);
        return;
      }
      collector->mark_phase("measure");
    }
    measure_batches(state, worker);
    // The worker ends first, as a run's cohort does before its collectors stop (strace then
    // ends by itself, cleanly).
    owned.reset();
    if (collector) {
      collector->mark_phase("teardown");
      entry = collector->stop(jbench::monotonic_ns() + 60'000'000'000ULL);
    }
  }
  if (!entry.is_null()) {
    state.counters["calls_seen"] = benchmark::Counter(entry.value("calls", 0.0));
    state.counters["dropped"] = benchmark::Counter(entry.value("dropped", 0.0));
    state.counters["output_MiB"] =
        benchmark::Counter(entry.value("output_bytes", 0.0) / (1024.0 * 1024.0));
    // From the collector's start to the proof that its tool is attached.
    const auto& life = entry["lifecycle"];
    if (life["attached_ns"].is_string() && life["started_ns"].is_string()) {
      const double attach_ns = std::stod(life["attached_ns"].get<std::string>()) -
                               std::stod(life["started_ns"].get<std::string>());
      state.counters["attach_ms"] = benchmark::Counter(attach_ns / 1e6);
    }
    // A collector that failed (e.g. dropped events in full detail) still slowed every call:
    // the figure is kept, and the label says how the collector ended.
    state.SetLabel("status=" + entry.value("status", std::string("?")));
  }
  std::filesystem::remove_all(dir);
}

#ifdef JBENCH_HAVE_LIBBPF
// The compiled tracer, or null once the case is skipped with why and `dir` removed.
std::unique_ptr<jbench::collectors::syscall_detail::LibbpfTracer> open_or_skip(
    benchmark::State& state, const std::string& dir,
    const jbench::collectors::syscall_detail::TracerOptions& options = {}) {
  auto tracer = jbench::collectors::syscall_detail::LibbpfTracer::open(options);
  if (!tracer) {
    state.SkipWithError(("the compiled tracer cannot load: " + tracer.error().message).c_str());
    std::filesystem::remove_all(dir);
    return nullptr;
  }
  return std::move(*tracer);
}

// The compiled tracer (collectors/syscall/bpf), light: loaded once, scoped to the worker.
void libbpf_light(benchmark::State& state) {
  const std::string dir = bench_dir("jbench-bench-libbpf-");
  const std::string file = dir + "/data";
  auto tracer = open_or_skip(state, dir);
  if (!tracer) return;
  {
    Worker worker(file);
    const std::uint64_t scope_start = jbench::monotonic_ns();
    if (const jbench::Status begun = tracer->begin_run({worker.pid()}); !begun) {
      state.SkipWithError(begun.error().message.c_str());
      std::filesystem::remove_all(dir);
      return;
    }
    state.counters["scope_us"] =
        benchmark::Counter(static_cast<double>(jbench::monotonic_ns() - scope_start) / 1e3);
    tracer->set_phase(2);
    measure_batches(state, worker);
  }
  const auto totals = tracer->end_run();
  std::uint64_t seen = 0;
  for (const auto& [key, t] : totals.totals) seen += t.count;
  state.counters["calls_seen"] = benchmark::Counter(static_cast<double>(seen));
  state.counters["dropped"] = benchmark::Counter(static_cast<double>(totals.lost));
  state.counters["attach_ms"] = benchmark::Counter(static_cast<double>(tracer->attach_ns()) / 1e6);
  std::filesystem::remove_all(dir);
}

// The compiled tracer loaded but scoped to no run, as between a session's traced runs: its
// programs are detached then, so this costs what `none` does (attached, a sys_enter program puts
// every system call of the host on the kernel's slow path).
void libbpf_idle(benchmark::State& state) {
  const std::string dir = bench_dir("jbench-bench-libbpf-idle-");
  auto tracer = open_or_skip(state, dir);
  if (!tracer) return;
  {
    Worker worker(dir + "/data");
    measure_batches(state, worker);
  }
  std::filesystem::remove_all(dir);
}

// The consumer alone: the worker fills a ring big enough for every record while nobody reads;
// then one poll takes them all and writes them to the records file. Time: that poll.
void libbpf_consumer(benchmark::State& state) {
  using namespace jbench::collectors::syscall_detail;
  constexpr std::uint64_t kCalls = 1'000'000;
  const std::string dir = bench_dir("jbench-bench-consumer-");
  TracerOptions options;
  options.record_ring_bytes = 256u << 20;  // 3.3 million records
  auto tracer = open_or_skip(state, dir, options);
  if (!tracer) return;
  Worker worker(dir + "/data");
  std::uint64_t records = 0;
  std::uint64_t lost = 0;
  int run = 0;
  for (auto _ : state) {
    const std::string file = dir + "/records-" + std::to_string(run++);
    if (const jbench::Status begun = tracer->begin_run({worker.pid()}, {file}); !begun) {
      state.SkipWithError(begun.error().message.c_str());
      break;
    }
    worker.order(kCalls);
    std::vector<CanaryHit> canaries;
    std::vector<ForkSeen> forks;
    const std::uint64_t start = jbench::monotonic_ns();
    tracer->poll(canaries, forks);
    state.SetIterationTime(static_cast<double>(jbench::monotonic_ns() - start) / 1e9);
    const RunEnd end = tracer->end_run();
    records += end.records.records;
    lost += end.lost;
    std::filesystem::remove(file);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(records));
  state.counters["records"] = benchmark::Counter(static_cast<double>(records));
  state.counters["dropped"] = benchmark::Counter(static_cast<double>(lost));
  std::filesystem::remove_all(dir);
}
#endif

// What any tracer of every system call pays before it does anything: bpftrace with empty
// programs on raw_syscalls' sys_enter and sys_exit, filtered on a pid that makes no call. Its
// BEGIN line says every probe is attached.
void bpftrace_empty(benchmark::State& state) {
  const std::string bpftrace = jbench::find_on_path("bpftrace");
  if (bpftrace.empty()) {
    state.SkipWithError("bpftrace is not on PATH");
    return;
  }
  const std::string dir = bench_dir("jbench-bench-bpftrace-empty-");
  jbench::proc::SpawnSpec spec;
  spec.executable = bpftrace;
  spec.args = {"-e",
               "BEGIN { printf(\"ready\\n\"); } tracepoint:raw_syscalls:sys_enter /pid == 0/ { } "
               "tracepoint:raw_syscalls:sys_exit /pid == 0/ { }"};
  spec.stderr_path = dir + "/bpftrace.stderr";
  auto spawned = jbench::proc::ChildProcess::spawn(spec);
  bool ready = false;
  if (spawned) {
    const std::uint64_t deadline = jbench::monotonic_ns() + 60'000'000'000ULL;
    std::string line;
    while (!ready &&
           (*spawned)->next_line(line, deadline) == jbench::proc::ChildProcess::LineWait::line) {
      ready = line == "ready";
    }
  }
  if (ready) {
    Worker worker(dir + "/data");
    measure_batches(state, worker);
  } else {
    state.SkipWithError("bpftrace never said it was attached (see its stderr)");
  }
  if (spawned) {
    ::kill((*spawned)->pid(), SIGINT);
    if (!(*spawned)->reap_within(60'000)) (*spawned)->kill_and_reap();
  }
  std::filesystem::remove_all(dir);
}

void none(benchmark::State& state) { traced_calls(state, "", SyscallDetail::light); }
void bpftrace_light(benchmark::State& state) {
  traced_calls(state, "bpftrace", SyscallDetail::light);
}
#ifdef JBENCH_HAVE_LIBBPF
void libbpf_full(benchmark::State& state) { traced_calls(state, "libbpf", SyscallDetail::full); }
#endif
void bpftrace_full(benchmark::State& state) {
  traced_calls(state, "bpftrace", SyscallDetail::full);
}
void dtrace_light(benchmark::State& state) { traced_calls(state, "dtrace", SyscallDetail::light); }
void dtrace_full(benchmark::State& state) { traced_calls(state, "dtrace", SyscallDetail::full); }
void strace_full(benchmark::State& state) { traced_calls(state, "strace", SyscallDetail::full); }

}  // namespace

BENCHMARK(none)->UseManualTime()->Iterations(50)->Unit(benchmark::kMillisecond);
#ifdef JBENCH_HAVE_LIBBPF
BENCHMARK(libbpf_idle)->UseManualTime()->Iterations(50)->Unit(benchmark::kMillisecond);
BENCHMARK(libbpf_light)->UseManualTime()->Iterations(50)->Unit(benchmark::kMillisecond);
BENCHMARK(libbpf_full)->UseManualTime()->Iterations(50)->Unit(benchmark::kMillisecond);
BENCHMARK(libbpf_consumer)->UseManualTime()->Iterations(5)->Unit(benchmark::kMillisecond);
#endif
BENCHMARK(bpftrace_empty)->UseManualTime()->Iterations(50)->Unit(benchmark::kMillisecond);
BENCHMARK(bpftrace_light)->UseManualTime()->Iterations(50)->Unit(benchmark::kMillisecond);
BENCHMARK(bpftrace_full)->UseManualTime()->Iterations(20)->Unit(benchmark::kMillisecond);
BENCHMARK(dtrace_light)->UseManualTime()->Iterations(50)->Unit(benchmark::kMillisecond);
BENCHMARK(dtrace_full)->UseManualTime()->Iterations(20)->Unit(benchmark::kMillisecond);
BENCHMARK(strace_full)->UseManualTime()->Iterations(5)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
