#include "jbench/collectors/cpu/cpu_accounting.h"

#include <dirent.h>
#include <fmt/format.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

#include "jb_events_writer_thread.h"
#include "jbench/common/clock.h"
#include "jbench/proc/proc_stat.h"

namespace jbench::collectors {
namespace {

using Json = nlohmann::json;

// /proc/<pid>/task/<tid>/schedstat: "<on-CPU ns> <runnable ns> <timeslices>" (the scheduler's
// sum_exec_runtime, run_delay and pcount), or none if it cannot be read.
std::optional<std::pair<std::uint64_t, std::uint64_t>> thread_schedstat(const std::string& task) {
  std::ifstream in(task + "/schedstat");
  std::uint64_t on_cpu = 0;
  std::uint64_t runnable = 0;
  if (!(in >> on_cpu >> runnable)) return std::nullopt;
  return std::pair{on_cpu, runnable};
}

bool is_bridge_writer(const std::string& task) {
  std::ifstream in(task + "/comm");
  std::string name;
  std::getline(in, name);
  return name == JB_EVENTS_WRITER_THREAD_NAME;
}

// Sums "voluntary_ctxt_switches" and "nonvoluntary_ctxt_switches" over the live threads, and the
// schedstat times over the workload's (none if one could not be read). Returns the trace bridge's
// writer thread's /proc directory, if the process has one.
std::optional<std::string> add_thread_stats(pid_t pid, CpuSample& s) {
  const std::string dir = fmt::format("/proc/{}/task", pid);
  DIR* d = opendir(dir.c_str());
  if (!d) return std::nullopt;
  std::optional<std::string> writer;
  bool sched_known = true;
  std::uint64_t on_cpu = 0;
  std::uint64_t runnable = 0;
  while (const dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    const std::string task = fmt::format("{}/{}", dir, e->d_name);
    std::ifstream in(task + "/status");
    std::string line;
    while (std::getline(in, line)) {
      std::uint64_t* into = nullptr;
      if (line.rfind("voluntary_ctxt_switches:", 0) == 0) into = &s.voluntary_switches;
      if (line.rfind("nonvoluntary_ctxt_switches:", 0) == 0) into = &s.involuntary_switches;
      if (into) *into += std::stoull(line.substr(line.find(':') + 1));
    }
    if (is_bridge_writer(task)) {
      writer = task;
      continue;
    }
    const auto sched = thread_schedstat(task);
    sched_known = sched_known && sched.has_value();
    on_cpu += sched ? sched->first : 0;
    runnable += sched ? sched->second : 0;
  }
  closedir(d);
  if (sched_known) {
    s.on_cpu_ns = on_cpu;
    s.runnable_ns = runnable;
  }
  return writer;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return in ? text.str() : std::string();
}

std::uint64_t less(std::uint64_t a, std::uint64_t b) { return a - std::min(a, b); }

// The process's I/O less its bridge writer's (the observer writes the event files). The writer's
// own counts are read before and after the process's, and the three readings kept only when the
// writer did nothing in between: a batch it wrote then would be in the process's figure and not
// subtracted. None when no such readings were had in a few tries, or a file cannot be read.
std::optional<IoCounts> workload_io(pid_t pid, const std::optional<std::string>& writer) {
  const std::string process_file = fmt::format("/proc/{}/io", pid);
  if (!writer) return parse_proc_io(read_text(process_file));
  for (int attempt = 0; attempt < 8; ++attempt) {
    const auto before = parse_proc_io(read_text(*writer + "/io"));
    auto io = parse_proc_io(read_text(process_file));
    const auto after = parse_proc_io(read_text(*writer + "/io"));
    if (!before || !io || !after) return std::nullopt;
    if (!(*before == *after)) continue;
    for (const IoField& f : kIoFields) (*io).*f.member = less((*io).*f.member, (*after).*f.member);
    return io;
  }
  return std::nullopt;
}

}  // namespace

std::optional<IoCounts> parse_proc_io(const std::string& text) {
  IoCounts io;
  std::size_t found = 0;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    for (const IoField& f : kIoFields) {
      if (line.rfind(f.proc_key, 0) != 0) continue;
      std::istringstream value(line.substr(std::strlen(f.proc_key)));
      if (!(value >> io.*f.member)) return std::nullopt;
      ++found;
    }
  }
  if (found != kIoFields.size()) return std::nullopt;
  return io;
}

std::optional<CpuSample> read_cpu_sample(pid_t pid, std::uint64_t start_time_ticks) {
  const auto before = proc::read_proc_stat(pid);
  if (!before || before->start_time_ticks != start_time_ticks || before->state == 'Z') {
    return std::nullopt;
  }
  CpuSample s;
  clockid_t clock{};
  timespec ts{};
  if (clock_getcpuclockid(pid, &clock) != 0 || clock_gettime(clock, &ts) != 0) return std::nullopt;
  s.cpu_ns = static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ULL +
             static_cast<std::uint64_t>(ts.tv_nsec);
  const auto writer = add_thread_stats(pid, s);
  s.io = workload_io(pid, writer);
  // Read the incarnation again: the clock must not have been another process's.
  const auto after = proc::read_proc_stat(pid);
  if (!after || after->start_time_ticks != start_time_ticks) return std::nullopt;
  s.user_ticks = after->utime_ticks;
  s.system_ticks = after->stime_ticks;
  s.threads = after->threads;
  s.minor_faults = after->minor_faults;
  s.major_faults = after->major_faults;
  // The faults of the bridge's writer are the observer's, as its writes are.
  if (const auto own =
          writer ? proc::parse_proc_stat(read_text(*writer + "/stat")) : std::nullopt) {
    s.minor_faults = less(s.minor_faults, own->minor_faults);
    s.major_faults = less(s.major_faults, own->major_faults);
  }
  return s;
}

void CpuAccounting::track(long worker, pid_t pid, std::uint64_t start_time_ticks) {
  for (const auto& t : tracked_) {
    if (t.pid == pid && t.start_time_ticks == start_time_ticks) return;
  }
  Tracked t{worker, pid, start_time_ticks, {}, std::nullopt, std::nullopt};
  if (const auto s = read_cpu_sample(pid, start_time_ticks)) {
    ++records_;
    t.readings.emplace_back("registered", *s);
    if (worker >= 0) verified_.push_back(static_cast<std::size_t>(worker));
  } else if (worker >= 0 && failure_.empty()) {
    failure_ = fmt::format("worker {} (pid {}) could not be read at registration", worker, pid);
  }
  tracked_.push_back(std::move(t));
}

void CpuAccounting::boundary(std::string_view phase) {
  for (auto& t : tracked_) {
    if (t.exit || t.ended_before) continue;
    if (const auto s = read_cpu_sample(t.pid, t.start_time_ticks)) {
      ++records_;
      t.readings.emplace_back(std::string(phase), *s);
    } else {
      // It ended (a zombie until reaped, so its pid cannot be reused meanwhile): what it used
      // since the last reading comes from its exit totals, charged to the phase it died in.
      t.ended_before = std::string(phase);
    }
  }
}

void CpuAccounting::exited(pid_t pid, const ExitTotals& totals) {
  for (auto& t : tracked_) {
    if (t.pid == pid && !t.exit) t.exit = totals;
  }
}

CollectorEntry CpuAccounting::finish(std::size_t workers, std::uint64_t started_ns) {
  CollectorEntry e;
  e.name = "cpu";
  e.backend = "proc";
  e.setting = "on";
  e.started_ns = started_ns;
  e.attached_ns = started_ns;
  e.attach_verified = !verified_.empty() || workers == 0;
  e.canaries_seen = verified_;
  std::sort(e.canaries_seen.begin(), e.canaries_seen.end());
  e.ended = Ended::exit(0);
  e.records = records_;
  if (!failure_.empty()) e.fail(failure_);
  for (const auto& t : tracked_) {
    if (t.worker >= 0 && !t.exit) {
      e.fail(fmt::format("worker {} (pid {}) was never reaped: no exact totals", t.worker, t.pid));
    }
  }
  e.extra["proof"] =
      "each incarnation read back from /proc with its registered start time at every boundary";
  ::jbench::collectors::finish(e, workers);
  return e;
}

Json CpuAccounting::readings() const {
  Json out = Json::array();
  for (const auto& t : tracked_) {
    Json readings = Json::array();
    for (const auto& [began, s] : t.readings) {
      readings.push_back(
          {{"began", began},
           {"cpu_ns", ns_string(s.cpu_ns)},
           {"user_ticks", ns_string(s.user_ticks)},
           {"system_ticks", ns_string(s.system_ticks)},
           {"voluntary_switches", s.voluntary_switches},
           {"involuntary_switches", s.involuntary_switches},
           {"threads", s.threads},
           {"on_cpu_ns", s.on_cpu_ns ? Json(ns_string(*s.on_cpu_ns)) : Json(nullptr)},
           {"runnable_ns", s.runnable_ns ? Json(ns_string(*s.runnable_ns)) : Json(nullptr)},
           {"minor_faults", s.minor_faults},
           {"major_faults", s.major_faults}});
      Json& r = readings.back();
      for (const IoField& f : kIoFields) {
        r[f.name] = s.io ? Json(ns_string((*s.io).*f.member)) : Json(nullptr);
      }
    }
    Json j = {{"worker", t.worker < 0 ? Json(nullptr) : Json(t.worker)},
              {"pid", t.pid},
              {"start_time_ticks", ns_string(t.start_time_ticks)},
              {"readings", readings},
              {"exit", nullptr}};
    if (t.exit) {
      j["exit"] = {{"user_ns", ns_string(t.exit->user_ns)},
                   {"system_ns", ns_string(t.exit->system_ns)},
                   {"voluntary_switches", t.exit->voluntary_switches},
                   {"involuntary_switches", t.exit->involuntary_switches},
                   {"source", "wait4"}};
    }
    out.push_back(std::move(j));
  }
  return {{"schema", "jbench.cpu_readings"},
          {"schema_version", 1},
          {"clock_ticks_per_second", sysconf(_SC_CLK_TCK)},
          {"incarnations", out}};
}

}  // namespace jbench::collectors
