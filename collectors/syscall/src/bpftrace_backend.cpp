// The bpftrace backend: the generated program (bpftrace_script.h), attached once a phase marker
// made by this process comes back through bpftrace's output. bpftrace reads its perf buffers only
// after every probe is attached, so that line is the proof; BEGIN alone is not (it may run first).
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "backend.h"
#include "bpftrace_output.h"
#include "host_tools.h"
#include "incarnations.h"
#include "jbench/common/clock.h"
#include "jbench/host_caps/tracefs.h"
#include "marked_tool.h"
#include "syscall_table.h"

namespace jbench::collectors::syscall_detail {
namespace {

constexpr const char* kScript = "syscall.bpftrace.bt";
constexpr const char* kBpftraceOutput = "syscall.bpftrace.jsonl";
constexpr const char* kBpftraceStderr = "syscall.bpftrace.stderr.txt";
// 16 MiB per CPU for up to four workers: bpftrace formats each line in user space more slowly
// than four busy SQLite workers make calls (about 100 000 a second), so the buffer must hold a
// measure phase's backlog. Seen here: 2 MiB dropped 9 000-35 000 events per run of that cell,
// 16 MiB none. More workers make more calls while bpftrace's reader gets less of the CPU, so the
// buffer grows with the cohort (a power of two, as perf requires), up to 128 MiB per CPU.
constexpr std::size_t kFullPerfBufferPages = 4096;
constexpr std::size_t kPagesPerWorker = 1024;
constexpr std::size_t kMaxFullPerfBufferPages = 32768;

std::size_t full_perf_buffer_pages(std::size_t workers) {
  std::size_t pages = kFullPerfBufferPages;
  while (pages < workers * kPagesPerWorker && pages < kMaxFullPerfBufferPages) pages *= 2;
  return pages;
}
constexpr std::uint64_t kQuietNs = 50'000'000;

// The first error bpftrace printed, without its harmless RLIMIT_MEMLOCK complaint and warnings.
std::string stderr_excerpt(const std::string& path) {
  std::ifstream in(path);
  std::string line, out;
  while (std::getline(in, line) && out.size() < 400) {
    if (line.find("RLIMIT_MEMLOCK") != std::string::npos) continue;
    if (line.find("ERROR") == std::string::npos && line.find("error") == std::string::npos) {
      continue;
    }
    if (!out.empty()) out += " | ";
    out += line;
  }
  return out;
}

class BpftraceBackend final : public Backend {
 public:
  BpftraceBackend(BackendContext context, std::string executable, std::string tracefs)
      : ctx_(std::move(context)), exe_(std::move(executable)), tracefs_(std::move(tracefs)) {}

  std::string_view name() const override { return "bpftrace"; }
  std::string version() const override { return version_; }

  jbench::Status attach(std::uint64_t deadline_ns) override {
    version_ = tool_version(exe_, "--version");
    ScriptSpec spec;
    spec.detail = ctx_.detail;
    spec.harness_pid = ctx_.harness_pid;
    for (const auto& p : ctx_.cohort) spec.cohort.push_back(p.pid);
    for (const auto& c : traced_calls()) {
      if (host_caps::syscall_tracepoint_exists(tracefs_, c.name)) spec.calls.push_back(c.name);
    }
    for (std::string_view c : {"faccessat", "faccessat2", "access"}) {
      if (host_caps::syscall_tracepoint_exists(tracefs_, c)) spec.canary_calls.push_back(c);
    }
    const std::string script_path = ctx_.raw_dir + "/" + kScript;
    {
      std::ofstream out(script_path, std::ios::trunc);
      out << bpftrace_script(spec);
      if (!out.flush()) return attach_failed(fmt::format("cannot write {}", script_path));
    }
    BackendLaunch launch;
    launch.executable = exe_;
    launch.args = {"-f", "json", script_path};
    launch.env = {{"BPFTRACE_STRLEN", std::to_string(kStringLimit)},
                  {"BPFTRACE_MAP_KEYS_MAX", std::to_string(kMapKeysMax)}};
    // Full detail prints a line per call: perf buffers of 16 MiB or more per CPU (not bpftrace's
    // 256 KiB) absorb bursts while bpftrace formats. A value in the environment is respected.
    if (ctx_.detail == Detail::full && std::getenv("BPFTRACE_PERF_RB_PAGES") == nullptr) {
      launch.env.emplace_back("BPFTRACE_PERF_RB_PAGES",
                              std::to_string(full_perf_buffer_pages(ctx_.cohort.size())));
    }
    launch.output_path = ctx_.raw_dir + "/" + kBpftraceOutput;
    launch.stderr_path = ctx_.raw_dir + "/" + kBpftraceStderr;
    launch.max_output_bytes = ctx_.max_output_bytes;
    LiveView* live = ctx_.live;
    launch.on_line = [live](std::string_view line) {
      note_live_line(*live, scan_bpftrace_line(line));
    };
    auto launched = BackendProcess::launch(std::move(launch));
    if (!launched) return attach_failed("bpftrace did not start: " + launched.error().message);
    process_ = std::move(*launched);
    // Compiling and attaching takes seconds. Meanwhile the startup marker is repeated; the
    // first one that comes back proves every probe is live.
    return await_attach_marker(
        *process_, *ctx_.live, deadline_ns, "bpftrace", kBpftraceStderr,
        [this] { return stderr_excerpt(ctx_.raw_dir + "/" + kBpftraceStderr); });
  }

  bool launched() const override { return process_ != nullptr; }
  pid_t pid() const override { return process_->pid(); }
  bool alive() override { return process_ && process_->running(); }

  void mark_phase(int phase) override { marker_call(kPhaseMarkerBase + phase); }

  jbench::Status add_process(const CohortProcess& p) override {
    marker_call(kJoinMarkerBase + p.pid);
    return {};
  }

  // Interrupted, bpftrace 0.17 drops what is still in its buffers, silently: first let it catch up.
  BackendEnd stop(std::uint64_t deadline_ns) override {
    caught_up_ = catch_up_before_stop(*process_, *ctx_.live, syncs_, deadline_ns, kQuietNs);
    return process_->stop(deadline_ns);
  }

  Observed collect(const std::vector<PhaseMark>& /*marks: the kernel kept the phase*/) override {
    BpftraceReader reader;
    std::ifstream in(ctx_.raw_dir + "/" + kBpftraceOutput);
    std::string line;
    while (std::getline(in, line)) reader.line(line);
    ProgramObservations obs = reader.finish();
    Observed out;
    out.per_call = ctx_.detail == Detail::full;
    out.calls = std::move(obs.calls);
    out.totals = std::move(obs.totals);
    out.canaries = std::move(obs.canaries);
    std::set<pid_t> forked;
    for (const auto& f : obs.forks) forked.insert(f.child);
    for (const auto& p : obs.processes) {
      out.processes.push_back({p.pid, boottime_ns_to_ticks(p.start_boottime_ns.value_or(0)),
                               p.parent, p.t_ns, forked.count(p.pid) > 0});
    }
    out.lost = obs.lost;
    out.malformed = obs.malformed;
    out.malformed_examples = std::move(obs.malformed_examples);
    if (process_->overlong_lines()) out.problems.push_back("bpftrace wrote a line over 1 MiB");
    if (!caught_up_) {
      out.problems.push_back(
          "bpftrace had not read all of its buffers by the stop deadline: calls may be missing");
    }
    if (obs.largest_map >= kMapKeysMax) {
      out.problems.push_back(fmt::format(
          "a bpftrace map reached its limit of {} keys: later updates were refused (lost)",
          kMapKeysMax));
    }
    out.header = {
        {"script", std::filesystem::path(ctx_.raw_dir).filename().string() + "/" + kScript}};
    out.entry = {{"backend_version", version_},
                 {"phase_markers_seen", obs.markers.size()},
                 {"forks_seen", obs.forks.size()}};
    return out;
  }

  std::vector<std::string> raw_files() const override {
    return {kScript, kBpftraceOutput, kBpftraceStderr};
  }
  std::uint64_t output_bytes() const override { return process_ ? process_->output_bytes() : 0; }
  bool over_bound() const override { return process_ && process_->over_bound(); }

 private:
  BackendContext ctx_;
  std::string exe_;
  std::string tracefs_;
  std::string version_;
  std::unique_ptr<BackendProcess> process_;
  int syncs_ = 0;
  bool caught_up_ = false;  // stop() saw bpftrace read everything before interrupting it
};

}  // namespace

std::unique_ptr<Backend> make_bpftrace_backend(BackendContext context, std::string executable,
                                               std::string tracefs) {
  return std::make_unique<BpftraceBackend>(std::move(context), std::move(executable),
                                           std::move(tracefs));
}

}  // namespace jbench::collectors::syscall_detail
