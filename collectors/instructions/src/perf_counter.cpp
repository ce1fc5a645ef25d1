#include "jbench/collectors/instructions/perf_counter.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>

#include "jbench/collectors/api/collector.h"
#include "jbench/common/errno_name.h"
#include "jbench/common/platform_choice.h"

#if JBENCH_PLATFORM_LINUX
#include <linux/perf_event.h>
#include <sys/syscall.h>
#endif

namespace jbench::collectors {

#if JBENCH_PLATFORM_LINUX
namespace {

perf_event_attr attributes(const PerfEvent& event) {
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = event.type;
  attr.config = event.config;
  attr.exclude_kernel = 1;  // the program's own work, as callgrind counts it
  attr.exclude_hv = 1;
  attr.inherit = 1;  // the threads and processes it starts later, folded in as they exit
  attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
  return attr;
}

Error open_error(const PerfEvent& event, pid_t tid, int err) {
  const char* name = jbench::errno_name(err);
  const bool absent = err == ENOENT || err == EOPNOTSUPP || err == ENODEV;
  const bool denied = err == EACCES || err == EPERM;
  return collector_problem(
      fmt::format("perf_event_open({}) on thread {}: {} ({}){}", event.name, tid,
                  std::strerror(err), name ? name : "?",
                  absent   ? ": this host has no such counter (a VM without a virtual PMU?)"
                  : denied ? ": not permitted (lower kernel.perf_event_paranoid, or run as root)"
                           : ""));
}

int open_one(const PerfEvent& event, pid_t tid) {
  perf_event_attr attr = attributes(event);
  return static_cast<int>(syscall(SYS_perf_event_open, &attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC));
}

// The threads of `pid` now, as numbers; just `pid` when its task list cannot be read.
std::vector<pid_t> threads_of(pid_t pid) {
  std::vector<pid_t> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(fmt::format("/proc/{}/task", pid), ec)) {
    const std::string name = e.path().filename().string();
    char* end = nullptr;
    const long tid = std::strtol(name.c_str(), &end, 10);
    if (*end == '\0' && tid > 0) out.push_back(static_cast<pid_t>(tid));
  }
  if (out.empty()) out.push_back(pid);
  return out;
}

}  // namespace

PerfEvent instructions_event() {
  return {PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions"};
}

Result<PerfCounter> PerfCounter::open(pid_t pid, const PerfEvent& event) {
  PerfCounter c;
  for (pid_t tid : threads_of(pid)) {
    const int fd = open_one(event, tid);
    if (fd < 0) {
      const int err = errno;
      if (err == ESRCH && tid != pid) continue;  // a thread that ended meanwhile
      return open_error(event, tid, err);
    }
    c.fds_.push_back(fd);
  }
  return c;
}

jbench::Status PerfCounter::probe(const PerfEvent& event) {
  const int fd = open_one(event, 0);
  if (fd < 0) return open_error(event, ::getpid(), errno);
  ::close(fd);
  return {};
}
#else
// perf_event_open is Linux's: elsewhere no counter opens, and counted runs use callgrind.
PerfEvent instructions_event() { return {0, 0, "instructions"}; }

Result<PerfCounter> PerfCounter::open(pid_t, const PerfEvent& event) {
  return collector_problem(fmt::format(
      "perf_event_open({}): a Linux system call; this build is not for Linux", event.name));
}

jbench::Status PerfCounter::probe(const PerfEvent& event) { return open(0, event).status(); }
#endif

PerfCounter::PerfCounter(PerfCounter&& other) noexcept : fds_(std::move(other.fds_)) {
  other.fds_.clear();
}

PerfCounter& PerfCounter::operator=(PerfCounter&& other) noexcept {
  if (this != &other) {
    close_all();
    fds_ = std::move(other.fds_);
    other.fds_.clear();
  }
  return *this;
}

PerfCounter::~PerfCounter() { close_all(); }

void PerfCounter::close_all() {
  for (int fd : fds_) ::close(fd);
  fds_.clear();
}

Result<PerfReading> PerfCounter::read() const {
  PerfReading sum;
  for (int fd : fds_) {
    std::uint64_t values[3] = {};  // value, time enabled, time running (read_format's order)
    const ssize_t n = ::read(fd, values, sizeof values);
    if (n != static_cast<ssize_t>(sizeof values)) {
      return collector_problem(
          fmt::format("reading a perf counter: {}", n < 0 ? std::strerror(errno) : "a short read"));
    }
    sum.value += values[0];
    sum.enabled_ns += values[1];
    sum.running_ns += values[2];
  }
  return sum;
}

}  // namespace jbench::collectors
