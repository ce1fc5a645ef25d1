#include "target_driver.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "host_tools.h"
#include "jbench/common/clock.h"
#include "jbench/host_caps/dtrace.h"
#include "jbench/host_caps/tracefs.h"
#include "jbench/proc/proc_stat.h"
#ifdef JBENCH_HAVE_LIBBPF
#include "libbpf_tracer.h"
#endif

#include "run_process.h"

namespace jbench::test {

using Json = nlohmann::json;

namespace {

// Safety nets, never measurements: far above any real wait, times JBENCH_TEST_TIME_SCALE.
std::uint64_t seconds_ns(long seconds) {
  return static_cast<std::uint64_t>(scaled_deadline(std::chrono::seconds(seconds)).count()) *
         1'000'000ULL;
}

// The next complete line on the target's stdout, waiting until `deadline`.
std::optional<std::string> next_line(proc::ChildProcess& p, std::uint64_t deadline,
                                     std::vector<std::string>& buffered) {
  while (buffered.empty()) {
    if (monotonic_ns() >= deadline) return std::nullopt;
    pollfd fd{p.stdout_fd(), POLLIN, 0};
    ::poll(&fd, 1, 20);
    bool overlong = false;
    if (!p.read_lines(buffered, overlong) && buffered.empty()) return std::nullopt;
  }
  std::string line = std::move(buffered.front());
  buffered.erase(buffered.begin());
  return line;
}

}  // namespace

std::unique_ptr<Target> Target::spawn(const std::string& dir, bool skip_canary) {
  std::filesystem::create_directories(dir);
  proc::SpawnSpec spec;
  spec.executable = JBENCH_SYSCALL_TARGET;
  spec.args = {"--dir", dir};
  if (skip_canary) spec.args.push_back("--skip-canary");
  auto spawned = proc::ChildProcess::spawn(spec);
  if (!spawned) {
    ADD_FAILURE() << spawned.error().message;
    return nullptr;
  }
  auto t = std::unique_ptr<Target>(new Target());
  t->process_ = std::move(*spawned);
  std::vector<std::string> lines;
  auto hello = next_line(*t->process_, monotonic_ns() + seconds_ns(10), lines);
  if (!hello) {
    ADD_FAILURE() << "the target never said hello";
    return nullptr;
  }
  const Json j = Json::parse(*hello);
  t->runtime_id_ = j.at("runtime_id");
  const auto stat = proc::read_proc_stat(t->process_->pid());
  if (!stat) {
    ADD_FAILURE() << "cannot read the target's /proc stat";
    return nullptr;
  }
  t->start_time_ticks_ = stat->start_time_ticks;
  return t;
}

bool Target::send(unsigned command, unsigned argument) {
  sigval value{};
  value.sival_int = static_cast<int>((command << 24) | (argument & 0xffffffu));
  if (sigqueue(process_->pid(), SIGUSR1, value) != 0) {
    ADD_FAILURE() << "sigqueue: " << std::strerror(errno);
    return false;
  }
  return true;
}

Json Target::await_ack() {
  std::vector<std::string> lines;
  auto ack = next_line(*process_, monotonic_ns() + seconds_ns(10), lines);
  if (!ack) {
    ADD_FAILURE() << "the target did not acknowledge its command";
    return Json();
  }
  return Json::parse(*ack);
}

Json Target::command(unsigned command, unsigned argument) {
  return send(command, argument) ? await_ack() : Json();
}

Json Target::canary() { return command(1, 0); }
Json Target::work(int rounds) { return command(2, static_cast<unsigned>(rounds)); }
Json Target::fork_work(int rounds) { return command(3, static_cast<unsigned>(rounds)); }
Json Target::burst(int calls) { return command(4, static_cast<unsigned>(calls)); }
Json Target::other(int calls) { return command(8, static_cast<unsigned>(calls)); }
Json Target::lock() { return command(6, 0); }
bool Target::send_lock() { return send(6, 0); }
Json Target::unlock() { return command(7, 0); }

void Target::exit_and_reap() {
  command(5, 0);
  const std::uint64_t deadline = monotonic_ns() + 5'000'000'000ULL;
  while (!process_->try_reap() && monotonic_ns() < deadline) ::poll(nullptr, 0, 5);
  const auto status = process_->reaped() ? *process_->status() : process_->kill_and_reap();
  EXPECT_FALSE(status.signaled) << status.describe();
  EXPECT_EQ(status.code, 0) << status.describe();
}

void add_did(Did& into, const std::string& phase, const Json& ack) {
  if (!ack.is_object() || !ack.contains("did")) return;
  for (const auto& [call, counts] : ack["did"].items()) {
    auto& cell = into[phase][call];
    cell.first += counts.at("calls").get<long>();
    cell.second += counts.at("errors").get<long>();
  }
}

Outcome run_scenario(const Scenario& s, const std::string& dir) {
  Outcome o;
  o.dir = dir;
  o.raw_dir = dir + "/raw";
  o.boot_id = proc::read_boot_id();
  auto target = Target::spawn(dir + "/work", s.skip_canary);
  if (!target) return o;
  std::unique_ptr<Target> twin;
  if (s.unrelated_twin) {
    twin = Target::spawn(dir + "/twin");
    if (!twin) return o;
    o.twin_pid = twin->pid();
  }
  if (s.after_spawn) s.after_spawn(target->pid());
  o.pid = target->pid();
  o.start_time_ticks = target->start_time_ticks();
  collectors::SyscallOptions options;
  options.detail = s.detail;
  options.backend = s.backend;
  options.compiled_first = s.compiled_first;
  options.raw_dir = o.raw_dir;
  options.run_id = o.run_id;
  options.boot_id = o.boot_id;
  options.max_output_bytes = s.max_output_bytes;
  options.attach_timeout_ns = s.attach_timeout_ns;
  auto collector = collectors::SyscallCollector::start(
      options, {{0, target->pid(), target->start_time_ticks()}});
  const auto both = [&](auto&& action, const std::string& phase) {
    add_did(o.did, phase, action(*target));
    if (twin) action(*twin);
  };
  both([&](Target& t) { return t.work(s.startup_rounds); }, "startup");
  both([](Target& t) { return t.canary(); }, "startup");
  o.canaries_ok = collector->await_canaries(monotonic_ns() + s.canary_timeout_ns);
  collector->mark_phase("warmup");
  both([&](Target& t) { return t.work(s.warmup_rounds); }, "warmup");
  collector->mark_phase("measure");
  both([&](Target& t) { return t.work(s.measure_rounds); }, "measure");
  if (s.fork_rounds_in_measure > 0) {
    const Json ack = target->fork_work(s.fork_rounds_in_measure);
    o.child_pid = ack.value("child", 0);
    add_did(o.child_did, "measure", ack);
    if (twin) twin->fork_work(s.fork_rounds_in_measure);
  }
  if (s.burst_in_measure > 0) {
    add_did(o.did, "measure", target->burst(s.burst_in_measure));
  }
  if (s.during_measure) s.during_measure(*collector);
  collector->mark_phase("teardown");
  both([&](Target& t) { return t.work(s.teardown_rounds); }, "teardown");
  target->exit_and_reap();
  if (twin) twin->exit_and_reap();
  if (s.after_exit) s.after_exit();
  o.entry = collector->stop(monotonic_ns() + 30'000'000'000ULL);
  return o;
}

const Json* summary_cell(const Json& entry, pid_t pid, const std::string& phase,
                         const std::string& call) {
  if (!entry.contains("summary") || !entry["summary"].contains("incarnations")) return nullptr;
  for (const auto& inc : entry["summary"]["incarnations"]) {
    if (inc.value("pid", 0) != pid) continue;
    const Json& phases = inc.at("phases");
    if (!phases.contains(phase) || !phases[phase].contains(call)) return nullptr;
    return &phases[phase][call];
  }
  return nullptr;
}

std::set<pid_t> summary_pids(const Json& entry) {
  std::set<pid_t> out;
  if (!entry.contains("summary") || !entry["summary"].contains("incarnations")) return out;
  for (const auto& inc : entry["summary"]["incarnations"]) {
    if (!inc.at("phases").empty()) out.insert(inc.value("pid", 0));
  }
  return out;
}

std::string bpftrace_missing() {
  using namespace collectors::syscall_detail;
  const auto why = bpftrace_unavailable(find_on_path("bpftrace"), host_caps::find_tracefs().dir);
  return why.reason;
}

std::string dtrace_missing() { return host_caps::find_dtrace().reason; }

std::string strace_missing() {
  using namespace collectors::syscall_detail;
  return strace_unavailable(find_on_path("strace")).reason;
}

#ifdef JBENCH_HAVE_LIBBPF
std::string libbpf_missing() {
  const auto tracer = collectors::syscall_detail::LibbpfTracer::open();
  return tracer ? std::string() : tracer.error().message;
}
#endif

int sever_bpf_links(const std::string& tp_name) {
  int severed = 0;
  const int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (null_fd < 0) return 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fdinfo", ec)) {
    std::ifstream in(entry.path());
    std::string line;
    bool link = false, named = false;
    while (std::getline(in, line)) {
      link = link || line.rfind("link_type:", 0) == 0;
      named = named || line == "tp_name:\t" + tp_name;
    }
    if (!link || !named) continue;
    const int fd = std::stoi(entry.path().filename().string());
    if (::dup2(null_fd, fd) == fd) ++severed;
  }
  ::close(null_fd);
  return severed;
}

}  // namespace jbench::test
