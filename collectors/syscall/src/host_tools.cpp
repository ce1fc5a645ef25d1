#include "host_tools.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include "jbench/host_caps/remediation.h"
#include "jbench/host_caps/tracefs.h"
#include "jbench/host_caps/yama.h"
#include "jbench/proc/run_tool.h"

namespace jbench::collectors::syscall_detail {
namespace {

std::optional<long> status_field(const std::string& file, std::string_view field) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.starts_with(field) || line.size() <= field.size() || line[field.size()] != ':') {
      continue;
    }
    const char* p = line.c_str() + field.size() + 1;
    while (*p == ' ' || *p == '\t') ++p;
    long v = 0;
    const auto [end, ec] = std::from_chars(p, line.c_str() + line.size(), v);
    if (ec != std::errc() || end == p) return std::nullopt;
    return v;
  }
  return std::nullopt;
}

std::int64_t read_ns(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000LL + ts.tv_nsec;
}

}  // namespace

Unavailable bpftrace_unavailable(const std::string& bpftrace, const std::string& tracefs) {
  if (bpftrace.empty()) {
    return {"bpftrace is not installed (not found on PATH)",
            fmt::format("{}; `jbench doctor` shows what this host can trace",
                        host_caps::kInstallBpftrace)};
  }
  if (geteuid() != 0) {
    return {"bpftrace runs only as root and this process is not root",
            fmt::format("{}; the strace backend needs no privilege", host_caps::kBpftraceAsRoot)};
  }
  if (tracefs.empty()) {
    return {
        "tracefs is not mounted: no events/ under /sys/kernel/tracing or "
        "/sys/kernel/debug/tracing",
        host_caps::kMountTracefs};
  }
  if (!host_caps::syscall_tracepoint_exists(tracefs, "openat")) {
    return {"the kernel has no syscall tracepoints (no events/syscalls/sys_enter_openat)",
            host_caps::kSyscallTracepointsKernel};
  }
  return {};
}

Unavailable strace_unavailable(const std::string& strace) {
  if (strace.empty()) {
    return {"strace is not installed (not found on PATH)", host_caps::kInstallStrace};
  }
  if (const auto value = host_caps::read_yama_ptrace_scope()) {
    // Attaching to a running worker (-p) is not "tracing a child": scope 1 allows it only to
    // root (CAP_SYS_PTRACE); scope 2 needs CAP_SYS_PTRACE; scope 3 forbids it.
    if (*value >= 3 || (*value >= 1 && geteuid() != 0)) {
      return {fmt::format("ptrace attach is refused: kernel.yama.ptrace_scope is {}", *value),
              "sudo sysctl -w kernel.yama.ptrace_scope=0 (scope 3 needs a reboot), or run as root"};
    }
  }
  return {};
}

std::string tool_version(const std::string& tool, const char* flag) {
  const proc::ToolRun run = proc::run_to_completion({tool, flag}, std::nullopt, 5000);
  if (!run.started) return {};
  // The first complete line, cut at 4096 bytes as it always was.
  const auto newline = run.out.find('\n');
  if (newline == std::string::npos) return {};
  return run.out.substr(0, std::min<std::size_t>(newline, 4096));
}

ClockOffset measure_clock_offset() {
  ClockOffset best;
  std::uint64_t tightest = UINT64_MAX;
  for (int i = 0; i < 16; ++i) {
    const std::int64_t m0 = read_ns(CLOCK_MONOTONIC);
    const std::int64_t r = read_ns(CLOCK_REALTIME);
    const std::int64_t m1 = read_ns(CLOCK_MONOTONIC);
    const auto width = static_cast<std::uint64_t>(m1 - m0);
    if (width < tightest) {
      tightest = width;
      best.realtime_minus_monotonic_ns = r - (m0 + (m1 - m0) / 2);
      best.uncertainty_ns = width;
    }
  }
  return best;
}

std::uint64_t boottime_minus_monotonic_ns() {
  const std::int64_t m = read_ns(CLOCK_MONOTONIC);
  const std::int64_t b = read_ns(CLOCK_BOOTTIME);
  return b > m ? static_cast<std::uint64_t>(b - m) : 0;
}

std::optional<pid_t> thread_group_of(pid_t tid) {
  auto tgid = status_field(fmt::format("/proc/{}/status", tid), "Tgid");
  if (!tgid) return std::nullopt;
  return static_cast<pid_t>(*tgid);
}

bool all_threads_traced_by(pid_t pid, pid_t tracer) {
  const std::vector<pid_t> tids = threads_of(pid);
  for (const pid_t tid : tids) {
    auto traced_by = status_field(fmt::format("/proc/{}/task/{}/status", pid, tid), "TracerPid");
    if (!traced_by || *traced_by != tracer) return false;
  }
  return !tids.empty();
}

std::vector<pid_t> threads_of(pid_t pid) {
  std::vector<pid_t> tids;
  std::error_code ec;
  for (const auto& task :
       std::filesystem::directory_iterator(fmt::format("/proc/{}/task", pid), ec)) {
    const std::string name = task.path().filename().string();
    pid_t tid = 0;
    const auto [end, err] = std::from_chars(name.data(), name.data() + name.size(), tid);
    if (err == std::errc() && end == name.data() + name.size()) tids.push_back(tid);
  }
  return tids;
}

}  // namespace jbench::collectors::syscall_detail
