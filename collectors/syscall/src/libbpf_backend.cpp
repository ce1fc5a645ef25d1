// The libbpf backend: the compiled tracer (libbpf_tracer.h), loaded once per jbench process (a
// session) on first use, attached for each traced run and scoped to its cohort. A drain thread
// takes canaries and forks from the rings while the run goes on, and in full detail the per-call
// records, which it writes to the records file in batches; light totals are read from the
// kernel's per-CPU maps when the run stops.
#include <bpf/libbpf.h>
#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "backend.h"
#include "incarnations.h"
#include "jbench/common/clock.h"
#include "libbpf_tracer.h"
#include "symbolize.h"
#include "syscall_table.h"
#include "syscall_trace.h"

namespace jbench::collectors::syscall_detail {
namespace {

// The program that traced, kept beside the run's records (provenance stores it as the tracer).
constexpr const char* kProgramFile = "syscall.libbpf.bpf.o";
constexpr const char* kRecordsFile = "syscall.libbpf.records";  // full (libbpf_records.h)

// The records ring's size: JBENCH_LIBBPF_RING_BYTES where set (read when the tracer loads).
TracerOptions session_options() {
  TracerOptions o;
  if (const char* v = std::getenv("JBENCH_LIBBPF_RING_BYTES"); v && *v) {
    char* end = nullptr;
    const unsigned long long bytes = std::strtoull(v, &end, 10);
    if (end && *end == '\0' && bytes > 0) o.record_ring_bytes = bytes;
  }
  return o;
}

// The session's tracer: opened by the first run that asks, kept until jbench exits, so later
// runs pay only for scoping. A load that failed is tried again by the next run; so is one whose
// programs stopped running (a run found a link gone), or whose ring is not the size now asked.
Result<LibbpfTracer*> session_tracer(bool& opened_now) {
  static std::unique_ptr<LibbpfTracer> tracer;
  opened_now = false;
  const TracerOptions options = session_options();
  if (tracer && (!tracer->healthy() || tracer->record_ring_bytes() !=
                                           LibbpfTracer::ring_size(options.record_ring_bytes))) {
    tracer.reset();
  }
  if (!tracer) {
    auto opened = LibbpfTracer::open(options);
    if (!opened) return opened.error();
    tracer = std::move(*opened);
    opened_now = true;
  }
  return tracer.get();
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

class LibbpfBackend final : public Backend {
 public:
  explicit LibbpfBackend(BackendContext context) : ctx_(std::move(context)) {}
  ~LibbpfBackend() override { stop_drain(); }

  std::string_view name() const override { return "libbpf"; }
  std::string version() const override {
    return fmt::format("libbpf {}.{}", libbpf_major_version(), libbpf_minor_version());
  }

  jbench::Status attach(std::uint64_t /*deadline_ns: loading takes milliseconds*/) override {
    const auto tracer = session_tracer(opened_now_);
    if (!tracer) return tracer.error();
    tracer_ = *tracer;
    {
      const std::string path = ctx_.raw_dir + "/" + kProgramFile;
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out << LibbpfTracer::program_object();
      if (!out.flush()) return attach_failed(fmt::format("cannot write {}", path));
    }
    const std::uint64_t scope_start = monotonic_ns();
    std::vector<pid_t> pids;
    for (const auto& p : ctx_.cohort) pids.push_back(p.pid);
    RecordsOutput records;
    if (full()) {
      records.path = ctx_.raw_dir + "/" + kRecordsFile;
      if (ctx_.max_output_bytes > 0) records.max_bytes = ctx_.max_output_bytes;
    }
    if (jbench::Status begun = tracer_->begin_run(pids, records); !begun) return begun;
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
    // Teardown: the workers still run, so their mappings can be read to name the samples' frames.
    if (full() && phase == kTeardownPhase) {
      for (const auto& p : ctx_.cohort) maps_[p.pid] = read_executable_maps(p.pid);
      std::lock_guard lock(ctx_.live->mu);
      for (const auto& f : forks_) maps_[f.child] = read_executable_maps(f.child);
    }
  }

  jbench::Status add_process(const CohortProcess& p) override {
    if (!tracer_) return attach_failed("the tracer is not loaded");
    return tracer_->add_process(p.pid);
  }

  BackendEnd stop(std::uint64_t /*deadline_ns*/) override {
    BackendEnd end;
    if (!launched_) return end;
    stop_drain();
    end_ = tracer_->end_run(canaries_, forks_);  // and what the drain thread had not taken yet
    return end;                                  // exit 0: nothing external to end
  }

  Observed collect(const std::vector<PhaseMark>& /*marks: the kernel kept the phase*/) override {
    Observed out;
    out.per_call = full();
    out.thread_roles = true;
    if (full()) read_records(out);
    out.totals = std::move(end_.totals);
    out.canaries = canaries_;
    for (const auto& f : forks_) {
      out.processes.push_back(
          {f.child, boottime_ns_to_ticks(f.start_boottime_ns), f.parent, f.t_ns, true});
    }
    out.lost = end_.lost;
    out.in_progress = end_.unfinished;
    if (!drain_error_.empty()) out.problems.push_back(drain_error_);
    for (auto& p : end_.problems) out.problems.push_back(std::move(p));
    out.header = {
        {"program", std::filesystem::path(ctx_.raw_dir).filename().string() + "/" + kProgramFile},
        {"source", "collectors/syscall/bpf/syscall_trace.bpf.c (CO-RE, libbpf)"}};
    out.entry = {{"backend_version", version()},
                 {"attach_ns", std::to_string(tracer_ ? tracer_->attach_ns() : 0)},
                 {"attached_for_this_run", opened_now_},
                 {"scope_ns", std::to_string(scope_ns_)},
                 {"forks_seen", forks_.size()}};
    if (full()) {
      // Named only when kept: a clean records file is dropped once translated (translated()).
      if (!records_clean_) {
        out.header["records"] =
            std::filesystem::path(ctx_.raw_dir).filename().string() + "/" + kRecordsFile;
      }
      out.entry["record_ring_bytes"] = tracer_ ? tracer_->record_ring_bytes() : 0;
      out.entry["records_drained_cpus"] = end_.records.drained_cpus;
      // The on-CPU sampler: its rate, or why it did not run; and how many samples it took.
      const std::string why_not = tracer_ ? tracer_->sampling() : "the tracer is not loaded";
      out.entry["cpu_sampling"] =
          why_not.empty() ? fmt::format("{} Hz per CPU", JB_SAMPLE_HZ) : "off: " + why_not;
      out.entry["cpu_samples"] = out.samples.size();
      out.entry["cpu_sample_hz"] = why_not.empty() ? nlohmann::json(JB_SAMPLE_HZ) : nullptr;
      out.header["cpu_sample_hz"] = why_not.empty() ? nlohmann::json(JB_SAMPLE_HZ) : nullptr;
    }
    return out;
  }

  // Every call of a clean records file is in the raw events file: the records are not kept
  // beside it. A damaged or unclosed one stays, as the evidence of what went wrong.
  void translated() override {
    if (!records_clean_) return;
    std::error_code ec;
    if (std::filesystem::remove(ctx_.raw_dir + "/" + kRecordsFile, ec)) records_kept_ = false;
  }

  std::vector<std::string> raw_files() const override {
    if (full() && launched_ && records_kept_) return {kProgramFile, kRecordsFile};
    return {kProgramFile};
  }
  std::uint64_t output_bytes() const override { return full() ? records_bytes_ : 0; }
  bool over_bound() const override { return end_.over_bound; }

 private:
  bool full() const { return ctx_.detail == Detail::full; }

  // The records file back as calls; what cannot be read fails the collector.
  void read_records(Observed& out) {
    const std::string bytes = read_all(ctx_.raw_dir + "/" + kRecordsFile);
    records_bytes_ = bytes.size();
    DecodedRecords decoded = decode_record_file(bytes);
    records_clean_ = decoded.has_trailer && decoded.malformed == 0 && end_.records.malformed == 0 &&
                     end_.problems.empty() && drain_error_.empty();
    out.calls = std::move(decoded.calls);
    out.samples = std::move(decoded.samples);
    name_frames(out.samples);
    out.malformed = decoded.malformed + end_.records.malformed;
    out.malformed_examples = std::move(decoded.malformed_examples);
    if (!decoded.has_trailer) {
      out.problems.push_back(fmt::format("{} has no trailer: it was not closed", kRecordsFile));
    }
  }

  // Every sample's frames named against its process's mappings read at teardown (a process gone
  // before then keeps its addresses), up to where the frame walk ended.
  void name_frames(std::vector<CpuSample>& samples) {
    Symbolizer symbolizer;
    static const std::vector<Mapping> kNone;
    for (CpuSample& s : samples) {
      const auto maps = maps_.find(s.pid);
      const std::vector<Mapping>& m = maps == maps_.end() ? kNone : maps->second;
      for (std::size_t i = 0; i < s.ips.size(); ++i) {
        s.frames.push_back(symbolizer.stack_frame(s.ips[i], m, i));
        if (s.frames.back() == kUnwindEnded) break;
      }
    }
  }

  // Canaries go to the live view as they arrive: the run waits for them before release. In
  // full detail this thread is also the records' consumer: polled every 10 ms (the ring wakes
  // it only when a quarter full).
  void drain() {
    try {
      drain_loop();
    } catch (const std::exception& e) {
      drain_error_ = fmt::format("the records consumer stopped during the run: {}", e.what());
    }
  }

  void drain_loop() {
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
  RunEnd end_;
  std::string drain_error_;  // written by the drain thread before it ends
  std::uint64_t records_bytes_ = 0;
  std::map<pid_t, std::vector<Mapping>> maps_;  // full: each process's, read at teardown
  bool records_clean_ = false;  // decoded whole: every call is in the raw events file
  bool records_kept_ = true;
};

}  // namespace

std::unique_ptr<Backend> make_libbpf_backend(BackendContext context) {
  return std::make_unique<LibbpfBackend>(std::move(context));
}

}  // namespace jbench::collectors::syscall_detail
