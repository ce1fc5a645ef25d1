// The libbpf backend: the compiled tracer (libbpf_tracer.h), loaded and attached once per jbench
// process (a session) on first use and scoped to each run's cohort. Light only for now: a full
// run asks bpftrace. A drain thread takes canaries and forks from the ring buffer while the run
// goes on; the totals are read from the kernel's per-CPU maps when it stops.
#include <bpf/libbpf.h>
#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "backend.h"
#include "incarnations.h"
#include "jbench/common/clock.h"
#include "libbpf_tracer.h"

namespace jbench::collectors::syscall_detail {
namespace {

// The program that traced, kept beside the run's records (provenance stores it as the tracer).
constexpr const char* kProgramFile = "syscall.libbpf.bpf.o";

// The session's tracer: opened by the first run that asks, kept until jbench exits, so later
// runs pay only for scoping. A load that failed is tried again by the next run.
LibbpfTracer* session_tracer(std::string& why, bool& opened_now) {
  static std::unique_ptr<LibbpfTracer> tracer;
  opened_now = false;
  if (!tracer) {
    tracer = LibbpfTracer::open(why);
    opened_now = tracer != nullptr;
  }
  return tracer.get();
}

class LibbpfBackend final : public Backend {
 public:
  explicit LibbpfBackend(BackendContext context) : ctx_(std::move(context)) {}
  ~LibbpfBackend() override { stop_drain(); }

  std::string_view name() const override { return "libbpf"; }
  std::string version() const override {
    return fmt::format("libbpf {}.{}", libbpf_major_version(), libbpf_minor_version());
  }

  std::string attach(std::uint64_t /*deadline_ns: loading takes milliseconds*/) override {
    if (ctx_.detail == Detail::full) {
      return "the compiled tracer records light totals only so far: full detail needs bpftrace";
    }
    std::string why;
    tracer_ = session_tracer(why, opened_now_);
    if (!tracer_) return why;
    {
      const std::string path = ctx_.raw_dir + "/" + kProgramFile;
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out << LibbpfTracer::program_object();
      if (!out.flush()) return fmt::format("cannot write {}", path);
    }
    const std::uint64_t scope_start = monotonic_ns();
    std::vector<pid_t> pids;
    for (const auto& p : ctx_.cohort) pids.push_back(p.pid);
    if (auto problem = tracer_->begin_run(pids); !problem.empty()) return problem;
    scope_ns_ = monotonic_ns() - scope_start;
    launched_ = true;
    drain_ = std::thread([this] { drain(); });
    return {};
  }

  bool launched() const override { return launched_; }
  bool alive() override { return launched_; }
  pid_t pid() const override { return 0; }  // in-process: no tool to signal

  void mark_phase(int phase) override {
    if (tracer_) tracer_->set_phase(phase);
  }

  std::string add_process(const CohortProcess& p) override {
    return tracer_ ? tracer_->add_process(p.pid) : std::string("the tracer is not loaded");
  }

  BackendEnd stop(std::uint64_t /*deadline_ns*/) override {
    BackendEnd end;
    if (!launched_) return end;
    stop_drain();
    tracer_->poll(canaries_, forks_);  // what the drain thread had not taken yet
    totals_ = tracer_->end_run();
    return end;  // exit 0: nothing external to end
  }

  Observed collect(const std::vector<PhaseMark>& /*marks: the kernel kept the phase*/) override {
    Observed out;
    out.per_call = false;
    out.totals = std::move(totals_.totals);
    out.canaries = canaries_;
    for (const auto& f : forks_) {
      out.processes.push_back(
          {f.child, boottime_ns_to_ticks(f.start_boottime_ns), f.parent, f.t_ns, true});
    }
    out.lost = totals_.lost;
    out.header = {
        {"program", std::filesystem::path(ctx_.raw_dir).filename().string() + "/" + kProgramFile},
        {"source", "collectors/syscall/bpf/syscall_trace.bpf.c (CO-RE, libbpf)"}};
    out.entry = {{"backend_version", version()},
                 {"attach_ns", std::to_string(tracer_ ? tracer_->attach_ns() : 0)},
                 {"attached_for_this_run", opened_now_},
                 {"scope_ns", std::to_string(scope_ns_)},
                 {"forks_seen", forks_.size()}};
    return out;
  }

  std::vector<std::string> raw_files() const override { return {kProgramFile}; }
  std::uint64_t output_bytes() const override { return 0; }
  bool over_bound() const override { return false; }

 private:
  // Canaries go to the live view as they arrive: the run waits for them before release.
  void drain() {
    while (!stopping_.load()) {
      std::vector<CanaryHit> canaries;
      std::vector<ForkSeen> forks;
      tracer_->poll(canaries, forks, 10);
      if (canaries.empty() && forks.empty()) continue;
      std::lock_guard lock(ctx_.live->mu);
      for (const auto& c : canaries) {
        ctx_.live->canaries.try_emplace(c.pid, c);
        canaries_.push_back(c);
      }
      for (const auto& f : forks) forks_.push_back(f);
      ctx_.live->changed.notify_all();
    }
  }

  void stop_drain() {
    stopping_ = true;
    if (drain_.joinable()) drain_.join();
  }

  BackendContext ctx_;
  LibbpfTracer* tracer_ = nullptr;
  bool opened_now_ = false;
  bool launched_ = false;
  std::uint64_t scope_ns_ = 0;
  std::thread drain_;
  std::atomic<bool> stopping_{false};
  std::vector<CanaryHit> canaries_;  // written by the drain thread under live->mu, then by stop()
  std::vector<ForkSeen> forks_;
  RunTotals totals_;
};

}  // namespace

std::unique_ptr<Backend> make_libbpf_backend(BackendContext context) {
  return std::make_unique<LibbpfBackend>(std::move(context));
}

}  // namespace jbench::collectors::syscall_detail
