// Cost of the allocation sampler (libjbench_alloc.so) per allocation, in four modes:
//
//   off      no preload: the plain glibc allocator
//   inert    preloaded, JBENCH_ALLOC_OUT unset: the cost of interposition alone
//   default  preloaded and sampling at the default mean (512 KiB)
//   dense    preloaded and sampling every 4 KiB on average
//
// A preload is decided when a process starts, so every case runs its workload in a child: this
// binary with `--child WORKLOAD OPS`, which times its own loop (spawning and writing the file at
// exit are outside the time) and prints the nanoseconds. The time is the loop's thread CPU time,
// not wall time: on a shared machine a preempted child would otherwise charge another
// process's time to the mode it happened to be running. Workloads:
//
//   pair64 / pair4096  malloc(n) + free, back to back: the worst case, nothing but the allocator
//   strings            an allocation-heavy program: strings of 16..1040 bytes built into a
//                      table of 4096 live ones (each op allocates one, fills it, frees another)
//
// Run: build/bin/jbench-bench-alloc [--benchmark_repetitions=5]
// The library is found beside the binary (../lib/libjbench_alloc.so) or at $JBENCH_ALLOC_SO.
#include <benchmark/benchmark.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

extern char** environ;

namespace {

// The calling thread's CPU time (the loops are single-threaded).
std::int64_t thread_cpu_ns() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

enum Workload : int { kPair64, kPair4096, kStrings };
enum Mode : int { kOff, kInert, kDefault, kDense };
const char* const kWorkloadNames[] = {"pair64", "pair4096", "strings"};
const char* const kModeNames[] = {"off", "inert", "default", "dense"};

// --- the child: one timed loop -------------------------------------------------------------

std::uint64_t next_random(std::uint64_t& s) {
  s ^= s << 13;
  s ^= s >> 7;
  s ^= s << 17;
  return s;
}

std::int64_t run_pairs(std::size_t size, std::uint64_t ops) {
  const std::int64_t start = thread_cpu_ns();
  for (std::uint64_t i = 0; i < ops; ++i) {
    void* p = std::malloc(size);
    benchmark::DoNotOptimize(p);  // keeps the compiler from eliding the pair
    std::free(p);
  }
  return thread_cpu_ns() - start;
}

std::int64_t run_strings(std::uint64_t ops) {
  std::vector<std::string> live(4096);
  std::uint64_t s = 88172645463325252u;
  const std::int64_t start = thread_cpu_ns();
  for (std::uint64_t i = 0; i < ops; ++i) {
    const std::uint64_t r = next_random(s);
    live[r % live.size()] = std::string(16 + (r >> 20) % 1025, static_cast<char>('a' + i % 26));
  }
  benchmark::DoNotOptimize(live.data());
  return thread_cpu_ns() - start;
}

int child_main(const char* workload, const char* ops_text) {
  const std::uint64_t ops = std::strtoull(ops_text, nullptr, 10);
  std::int64_t ns = -1;
  if (std::strcmp(workload, "pair64") == 0) ns = run_pairs(64, ops);
  if (std::strcmp(workload, "pair4096") == 0) ns = run_pairs(4096, ops);
  if (std::strcmp(workload, "strings") == 0) ns = run_strings(ops);
  if (ns < 0) return 2;
  std::printf("%lld\n", static_cast<long long>(ns));
  return 0;
}

// --- the parent: one child per benchmark iteration -----------------------------------------

std::string self_path() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

std::string library_path() {
  if (const char* p = std::getenv("JBENCH_ALLOC_SO"); p && *p) return p;
#ifdef JBENCH_ALLOC_SO
  return JBENCH_ALLOC_SO;
#else
  return (std::filesystem::path(self_path()).parent_path() / "../lib/libjbench_alloc.so").string();
#endif
}

// The environment of a child in `mode`: ours, minus any sampler variable, plus the mode's.
std::vector<std::string> child_environment(Mode mode, const std::string& out) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    if (std::strncmp(*e, "LD_PRELOAD=", 11) == 0 || std::strncmp(*e, "JBENCH_ALLOC_", 13) == 0) {
      continue;
    }
    env.emplace_back(*e);
  }
  if (mode == kOff) return env;
  env.push_back("LD_PRELOAD=" + library_path());
  if (mode == kInert) return env;
  env.push_back("JBENCH_ALLOC_OUT=" + out);
  env.push_back("JBENCH_ALLOC_SEED=1");
  // Room for every sample, so the dense mode measures recording, not dropping.
  env.push_back("JBENCH_ALLOC_BUFFER=16777216");
  if (mode == kDense) env.push_back("JBENCH_ALLOC_MEAN_BYTES=4096");
  return env;
}

// Runs one child and returns its loop's nanoseconds, or -1 (with the reason in `error`).
std::int64_t run_child(Workload workload, Mode mode, std::uint64_t ops, std::string& error) {
  char dir_template[] = "/tmp/jbench-bench-alloc.XXXXXX";
  const char* dir = ::mkdtemp(dir_template);
  if (!dir) {
    error = "mkdtemp failed";
    return -1;
  }
  const std::string out = std::string(dir) + "/alloc.events.jsonl";
  const std::string self = self_path();
  const std::string ops_text = std::to_string(ops);
  std::vector<std::string> env_strings = child_environment(mode, out);
  std::vector<char*> env;
  for (auto& e : env_strings) env.push_back(e.data());
  env.push_back(nullptr);
  char* argv[] = {const_cast<char*>(self.c_str()), const_cast<char*>("--child"),
                  const_cast<char*>(kWorkloadNames[workload]), const_cast<char*>(ops_text.c_str()),
                  nullptr};
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) {
    error = "pipe failed";
    return -1;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, self.c_str(), &actions, nullptr, argv, env.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  std::string text;
  char buf[256];
  for (ssize_t n; rc == 0 && (n = ::read(pipe_fds[0], buf, sizeof buf)) > 0;) {
    text.append(buf, static_cast<std::size_t>(n));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  if (rc == 0) ::waitpid(pid, &status, 0);
  std::filesystem::remove_all(dir);
  if (rc != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || text.empty()) {
    error = "the child failed (posix_spawn " + std::to_string(rc) + ")";
    return -1;
  }
  return std::stoll(text);
}

void BM_AllocOverhead(benchmark::State& state) {
  const auto workload = static_cast<Workload>(state.range(0));
  const auto mode = static_cast<Mode>(state.range(1));
  const std::uint64_t ops = workload == kStrings ? 1'000'000 : 4'000'000;
  double total_ns = 0;
  std::uint64_t total_ops = 0;
  for (auto _ : state) {
    std::string error;
    const std::int64_t ns = run_child(workload, mode, ops, error);
    if (ns < 0) {
      state.SkipWithError(error.c_str());
      break;
    }
    state.SetIterationTime(static_cast<double>(ns) * 1e-9);
    total_ns += static_cast<double>(ns);
    total_ops += ops;
  }
  if (total_ops > 0) state.counters["ns_per_op"] = total_ns / static_cast<double>(total_ops);
  state.SetLabel(std::string(kWorkloadNames[workload]) + "/" + kModeNames[mode]);
}
BENCHMARK(BM_AllocOverhead)
    ->ArgNames({"workload", "mode"})
    ->ArgsProduct({{kPair64, kPair4096, kStrings}, {kOff, kInert, kDefault, kDense}})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::strcmp(argv[1], "--child") == 0) return child_main(argv[2], argv[3]);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
