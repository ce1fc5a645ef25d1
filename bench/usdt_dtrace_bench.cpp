// What a span costs when DTrace traces the bridge's USDT probes through its pid provider
// (jbench/probes/usdt_dtrace.h, docs/collectors/dtrace.md), beside the same span untraced:
//
//   build/bin/jbench-bench-usdt-dtrace      (root; $JBENCH_DTRACE names DTrace; the DTrace cases
//                                             skip saying why where none is found)
//
// The process links libjbench_bridge.so in no-consumer mode (the probes fire, nothing is
// recorded) and makes spans, each a begin and an end: two probe firings. Cases, each one span
// per iteration:
//   probes_down      the semaphores are 0: the probe sites are skipped (what a run pays untraced)
//   probes_up        the semaphores raised, no tracer: the sites' argument set-up and their nop
//   dtrace_count     DTrace counts each firing in the kernel (count() per probe)
//   dtrace_printf    DTrace prints a line per firing (its consumer formats it in user space)
// `attach_ms` is the time from starting dtrace to its BEGIN line, its probes enabled.
#include <benchmark/benchmark.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include "jbench/common/clock.h"
#include "jbench/elf/functions.h"
#include "jbench/host_caps/dtrace.h"
#include "jbench/probes/usdt_dtrace.h"
#include "jbench/probes/usdt_semaphores.h"
#include "jbench/proc/child_process.h"
#include "jbench_bridge.h"

namespace {

struct Library {
  std::string path;
  jbench::SdtNotes notes;
  std::string unreadable;  // why its probe notes could not be read; empty when they were
  jbench::elf::FunctionTable functions;
};

// The bridge library this process has mapped (linked against it, found through the bench's own
// build-time path).
const Library& library() {
  static const Library lib = [] {
    Library l;
    l.path = std::filesystem::canonical(JBENCH_BRIDGE_SO).string();
    if (auto notes = jbench::read_sdt_notes(l.path)) {
      l.notes = std::move(*notes);
    } else {
      l.unreadable = notes.error().message;
    }
    l.functions = jbench::elf::read_function_table_of(l.path);
    return l;
  }();
  return lib;
}

void spans(benchmark::State& state) {
  for (auto _ : state) {
    const std::uint64_t span = jb_span_begin("bench", 0);
    jb_span_end(span);
  }
  state.SetItemsProcessed(state.iterations() * 2);  // probe firings
}

// Raises (or lowers) this process's semaphores for the length of a benchmark.
class Semaphores {
 public:
  explicit Semaphores(benchmark::State& state) {
    const Library& l = library();
    if (!l.unreadable.empty()) {
      why_ = l.unreadable;
    } else if (const jbench::Status raised =
                   jbench::add_to_semaphores(::getpid(), l.path, l.notes.probes, l.functions, +1);
               !raised) {
      why_ = raised.error().message;
    }
    if (!why_.empty()) state.SkipWithError(why_.c_str());
  }
  ~Semaphores() {
    const Library& l = library();
    if (why_.empty())
      (void)jbench::add_to_semaphores(::getpid(), l.path, l.notes.probes, l.functions, -1);
  }
  bool ok() const { return why_.empty(); }

 private:
  std::string why_;
};

// dtrace running the bridge's sites of this process with `body`, until destroyed (SIGINT, then
// reaped). Empty `error()` once its BEGIN line came back.
class Tracer {
 public:
  explicit Tracer(const std::string& body) {
    const auto dtrace = jbench::host_caps::find_dtrace();
    if (dtrace.path.empty()) {
      error_ = dtrace.reason;
      return;
    }
    const Library& l = library();
    if (!l.unreadable.empty()) {
      error_ = l.unreadable;
      return;
    }
    const auto placed = jbench::place_usdt_sites(l.notes.probes, l.functions);
    std::map<std::string, std::string> bodies;
    for (const char* probe : {"span__begin", "span__end"}) bodies[probe] = body;
    script_ = (std::filesystem::temp_directory_path() /
               ("jbench-bench-usdt-" + std::to_string(::getpid()) + ".d"))
                  .string();
    std::ofstream(script_) << "#pragma D option quiet\nBEGIN { printf(\"attached\\n\"); }\n"
                           << jbench::usdt_pid_clauses(
                                  ::getpid(), std::filesystem::path(l.path).filename().string(),
                                  placed.sites, bodies);
    jbench::proc::SpawnSpec spec;
    spec.executable = dtrace.path;
    spec.args = {"-s", script_};
    auto spawned = jbench::proc::ChildProcess::spawn(spec);
    if (!spawned) {
      error_ = spawned.error().message;
      return;
    }
    process_ = std::move(*spawned);
    // Its output is drained as it comes (a full pipe would stall its consumer into drops).
    const std::uint64_t started = jbench::monotonic_ns();
    drain_ = std::thread([this] {
      std::string line;
      while (process_->next_line(line, UINT64_MAX) == jbench::proc::ChildProcess::LineWait::line) {
        if (line == "attached") attached_ = true;
      }
    });
    while (!attached_ && jbench::monotonic_ns() - started < 90'000'000'000ULL &&
           !process_->try_reap()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (attached_) {
      attach_ms_ = static_cast<double>(jbench::monotonic_ns() - started) / 1e6;
    } else {
      error_ = "dtrace did not enable the probes within 90 s (run the script by hand)";
    }
  }
  ~Tracer() {
    if (process_) {
      ::kill(process_->pid(), SIGINT);
      if (!process_->reap_within(30'000)) process_->kill_and_reap();
      drain_.join();
    }
    if (!script_.empty()) std::filesystem::remove(script_);
  }
  const std::string& error() const { return error_; }
  double attach_ms() const { return attach_ms_; }

 private:
  std::unique_ptr<jbench::proc::ChildProcess> process_;
  std::thread drain_;
  std::atomic<bool> attached_{false};
  std::string script_;
  std::string error_;
  double attach_ms_ = 0;
};

void probes_down(benchmark::State& state) { spans(state); }

void probes_up(benchmark::State& state) {
  Semaphores up(state);
  if (up.ok()) spans(state);
}

void traced(benchmark::State& state, const std::string& body) {
  Semaphores up(state);
  if (!up.ok()) return;
  Tracer tracer(body);
  if (!tracer.error().empty()) {
    state.SkipWithError(tracer.error().c_str());
    return;
  }
  spans(state);
  state.counters["attach_ms"] = benchmark::Counter(tracer.attach_ms());
}

void dtrace_count(benchmark::State& state) { traced(state, "@[probename] = count();"); }
void dtrace_printf(benchmark::State& state) {
  traced(state, R"(printf("%s %u\n", probename, {arg0});)");
}

}  // namespace

BENCHMARK(probes_down)->Iterations(2'000'000);
BENCHMARK(probes_up)->Iterations(2'000'000);
BENCHMARK(dtrace_count)->Iterations(200'000);
BENCHMARK(dtrace_printf)->Iterations(50'000);

int main(int argc, char** argv) {
  ::setenv("JBENCH_BRIDGE_MODE", "no-consumer", 1);
  if (jb_init_from_env() != 0) return 3;
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
