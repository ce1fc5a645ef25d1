// The DTrace backend: the generated D program (dtrace_script.h) run by a real DTrace (found by
// host_tools' find_dtrace), attached once a phase marker made by this process comes back
// through its output. DTrace fires BEGIN only once every probe is enabled and prints what its
// consumer read, so that line proves the probes are live, as with bpftrace.
#include <fmt/format.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "backend.h"
#include "dtrace_output.h"
#include "dtrace_script.h"
#include "host_tools.h"
#include "incarnations.h"
#include "jbench/common/clock.h"
#include "jbench/proc/run_tool.h"
#include "marked_tool.h"
#include "symbolize.h"
#include "syscall_table.h"

namespace jbench::collectors::syscall_detail {
namespace {

constexpr const char* kScript = "syscall.dtrace.d";
constexpr const char* kOutput = "syscall.dtrace.txt";
constexpr const char* kStderr = "syscall.dtrace.stderr.txt";
constexpr std::uint64_t kDtraceQuietNs = 100'000'000;  // five of the consumer's reads (20 Hz)

// The calls of the syscall provider, from `dtrace -l -P syscall` ("ID PROVIDER MODULE FUNCTION
// NAME" rows): what the program may name.
std::set<std::string> syscall_probes(const std::string& dtrace) {
  std::set<std::string> out;
  const proc::ToolRun run =
      proc::run_to_completion({dtrace, "-l", "-P", "syscall"}, std::nullopt, 30'000, 1 << 20);
  std::istringstream in(run.out);
  for (std::string line; std::getline(in, line);) {
    std::istringstream row(line);
    std::string id, provider, module, function, name;
    if (row >> id >> provider >> module >> function >> name && provider == "syscall") {
      out.insert(function);
    }
  }
  return out;
}

// The first lines of dtrace's stderr that say why it stopped.
std::string stderr_excerpt(const std::string& path) {
  std::ifstream in(path);
  std::string line, out;
  while (std::getline(in, line) && out.size() < 400) {
    if (line.empty()) continue;
    if (!out.empty()) out += " | ";
    out += line;
  }
  return out;
}

class DtraceBackend final : public Backend {
 public:
  DtraceBackend(BackendContext context, std::string executable, std::string version)
      : ctx_(std::move(context)), exe_(std::move(executable)), version_(std::move(version)) {}

  std::string_view name() const override { return "dtrace"; }
  std::string version() const override { return version_; }

  jbench::Status attach(std::uint64_t deadline_ns) override {
    const std::set<std::string> probes = syscall_probes(exe_);
    if (probes.empty()) {
      return attach_failed(fmt::format(
          "{} -l -P syscall listed no probes: DTrace cannot trace system calls here", exe_));
    }
    ScriptSpec spec;
    spec.detail = ctx_.detail;
    spec.harness_pid = ctx_.harness_pid;
    for (const auto& p : ctx_.cohort) spec.cohort.push_back(p.pid);
    for (const auto& c : traced_calls()) {
      if (probes.count(std::string(c.name))) {
        spec.calls.push_back(c.name);
      } else {
        left_out_.push_back(std::string(c.name));
      }
    }
    for (std::string_view c : {"faccessat", "faccessat2", "access"}) {
      if (probes.count(std::string(c))) spec.canary_calls.push_back(c);
    }
    if (!probes.count("getpgid"))
      return attach_failed("DTrace has no syscall::getpgid probe for phase markers");
    const std::string script_path = ctx_.raw_dir + "/" + kScript;
    {
      std::ofstream out(script_path, std::ios::trunc);
      out << dtrace_script(spec);
      if (!out.flush()) return attach_failed(fmt::format("cannot write {}", script_path));
    }
    BackendLaunch launch;
    launch.executable = exe_;
    launch.args = {"-s", script_path};
    launch.output_path = ctx_.raw_dir + "/" + kOutput;
    launch.stderr_path = ctx_.raw_dir + "/" + kStderr;
    launch.max_output_bytes = ctx_.max_output_bytes;
    LiveView* live = ctx_.live;
    launch.on_line = [this, live](std::string_view line) {
      const LiveLine l = scan_program_line(line);
      if (l.kind == LiveLine::Kind::process) {
        std::lock_guard lock(seen_mu_);
        seen_.insert(l.pid);  // its mappings are read at teardown, to name its samples' frames
      }
      note_live_line(*live, l);
    };
    auto launched = BackendProcess::launch(std::move(launch));
    if (!launched) return attach_failed("dtrace did not start: " + launched.error().message);
    process_ = std::move(*launched);
    // Compiling and enabling takes about two seconds; meanwhile the marker is repeated.
    return await_attach_marker(*process_, *ctx_.live, deadline_ns, "dtrace", kStderr,
                               [this] { return stderr_excerpt(ctx_.raw_dir + "/" + kStderr); });
  }

  bool launched() const override { return process_ != nullptr; }
  pid_t pid() const override { return process_->pid(); }
  bool alive() override { return process_ && process_->running(); }

  void mark_phase(int phase) override {
    marker_call(kPhaseMarkerBase + phase);
    // Teardown: the workers still run, so their mappings can be read to name the samples' frames.
    if (ctx_.detail == Detail::full && phase == kTeardownPhase) {
      for (const auto& p : ctx_.cohort) maps_[p.pid] = read_executable_maps(p.pid);
      std::lock_guard lock(seen_mu_);
      for (const pid_t pid : seen_) maps_.try_emplace(pid, read_executable_maps(pid));
    }
  }

  jbench::Status add_process(const CohortProcess& p) override {
    marker_call(kJoinMarkerBase + p.pid);
    return {};
  }

  // As with bpftrace: a sync marker read back proves the consumer has read the buffers up to it;
  // then SIGINT, on which DTrace runs END (the aggregations) and exits.
  BackendEnd stop(std::uint64_t deadline_ns) override {
    caught_up_ = catch_up_before_stop(*process_, *ctx_.live, syncs_, deadline_ns, kDtraceQuietNs);
    return process_->stop(deadline_ns);
  }

  Observed collect(const std::vector<PhaseMark>& /*marks: the kernel kept the phase*/) override {
    DtraceReader reader;
    std::string line;
    std::ifstream out(ctx_.raw_dir + "/" + kOutput);
    while (std::getline(out, line)) reader.line(line);
    std::ifstream err(ctx_.raw_dir + "/" + kStderr);
    while (std::getline(err, line)) reader.stderr_line(line);
    ProgramObservations obs = reader.finish();
    Observed o;
    o.per_call = ctx_.detail == Detail::full;
    o.thread_roles = true;
    o.calls = std::move(obs.calls);
    o.totals = std::move(obs.totals);
    o.canaries = std::move(obs.canaries);
    if (ctx_.detail == Detail::full) {
      o.samples = std::move(obs.samples);
      name_frames(o.samples);
      o.entry["cpu_samples"] = o.samples.size();
      o.entry["cpu_sample_hz"] = kDtraceSampleHz;
      o.header["cpu_sample_hz"] = kDtraceSampleHz;
    }
    std::set<pid_t> forked;
    for (const auto& f : obs.forks) forked.insert(f.child);
    for (const auto& p : obs.processes) {
      o.processes.push_back({p.pid, boottime_ns_to_ticks(p.start_boottime_ns.value_or(0)), p.parent,
                             p.t_ns, forked.count(p.pid) > 0});
    }
    o.lost = obs.lost;
    output_clean_ = obs.lost == 0 && obs.malformed == 0 && caught_up_ &&
                    !process_->overlong_lines() && !process_->over_bound() &&
                    reader.errors().empty();
    o.malformed = obs.malformed;
    o.malformed_examples = std::move(obs.malformed_examples);
    for (const auto& e : reader.errors()) o.problems.push_back("dtrace: " + e);
    if (process_->overlong_lines()) o.problems.push_back("dtrace wrote a line over 1 MiB");
    if (!caught_up_) {
      o.problems.push_back(
          "dtrace had not printed all it read by the stop deadline: calls may be missing");
    }
    o.header["script"] = std::filesystem::path(ctx_.raw_dir).filename().string() + "/" + kScript;
    o.entry.update({{"backend_version", version_},
                    {"phase_markers_seen", obs.markers.size()},
                    {"forks_seen", obs.forks.size()},
                    {"calls_without_probe", left_out_}});
    return o;
  }

  // Everything a clean output held is in the raw events file and the entry (calls or totals,
  // samples, canaries, forks, phase marks): the output is not kept beside them. One with lost,
  // malformed or unread lines stays, as the evidence of what went wrong.
  void translated() override {
    if (!output_clean_) return;
    std::error_code ec;
    if (std::filesystem::remove(ctx_.raw_dir + "/" + kOutput, ec)) output_kept_ = false;
  }

  std::vector<std::string> raw_files() const override {
    if (output_kept_) return {kScript, kOutput, kStderr};
    return {kScript, kStderr};
  }

  // Each frame as the compiled tracer's samples name it: DTrace's own symbol where it found one
  // ("cfree (libc.so.6)"), else the address named against the process's mappings read at
  // teardown ("dash+0x13678"), up to where the frame walk ended.
  void name_frames(std::vector<CpuSample>& samples) {
    Symbolizer symbolizer;
    static const std::vector<Mapping> kNone;
    for (CpuSample& s : samples) {
      const auto found = maps_.find(s.pid);
      const std::vector<Mapping>& maps = found == maps_.end() ? kNone : found->second;
      std::vector<std::string> named;
      for (std::size_t i = 0; i < s.frames.size(); ++i) {
        const DtraceFrame f = parse_dtrace_frame(s.frames[i]);
        if (!f.symbol.empty()) {
          named.push_back(fmt::format("{} ({})", demangled(f.symbol.c_str()), f.module));
          continue;
        }
        named.push_back(symbolizer.stack_frame(f.address, maps, i));
        if (named.back() == kUnwindEnded) break;
      }
      s.frames = std::move(named);
    }
  }
  std::uint64_t output_bytes() const override { return process_ ? process_->output_bytes() : 0; }
  bool over_bound() const override { return process_ && process_->over_bound(); }

 private:
  BackendContext ctx_;
  std::string exe_;
  std::string version_;
  std::vector<std::string> left_out_;  // traced calls this host's provider has no probe for
  std::mutex seen_mu_;
  std::set<pid_t> seen_;                        // members whose first call was seen
  std::map<pid_t, std::vector<Mapping>> maps_;  // full: read at teardown
  std::unique_ptr<BackendProcess> process_;
  int syncs_ = 0;
  bool caught_up_ = false;
  bool output_clean_ = false;  // collect() read it whole: nothing lost, malformed or unread
  bool output_kept_ = true;
};

}  // namespace

std::unique_ptr<Backend> make_dtrace_backend(BackendContext context, std::string executable,
                                             std::string version) {
  return std::make_unique<DtraceBackend>(std::move(context), std::move(executable),
                                         std::move(version));
}

}  // namespace jbench::collectors::syscall_detail
