#include "syscall_table.h"

#include <fmt/format.h>

#include <array>
#include <cstring>
#include <utility>

#include "jbench/common/errno_name.h"
#include "syscall_trace.h"

namespace jbench::collectors::syscall_detail {
namespace {

constexpr std::array<TracedCall, 14> kCalls = {{
    {0, "open", ArgKind::path, false},
    {1, "openat", ArgKind::path, true},
    {2, "openat2", ArgKind::path, true},
    {3, "read", ArgKind::fd, false},
    {4, "pread64", ArgKind::fd, false},
    {5, "readv", ArgKind::fd, false},
    {6, "write", ArgKind::fd, false},
    {7, "pwrite64", ArgKind::fd, false},
    {8, "writev", ArgKind::fd, false},
    {9, "fsync", ArgKind::fd, false},
    {10, "fdatasync", ArgKind::fd, false},
    {11, "flock", ArgKind::fd_request, false},
    {12, "fcntl", ArgKind::fd_request, false},
    {13, "ioctl", ArgKind::fd_request, false},
}};

// Their ids follow the system calls' (the compiled tracer's JB_CALL_OFF_CPU_*).
constexpr std::array<TracedCall, 2> kOffCpu = {{
    {JB_CALL_OFF_CPU_BLOCKED, "off-cpu:blocked", ArgKind::request, false, true},
    {JB_CALL_OFF_CPU_RUNNABLE, "off-cpu:runnable", ArgKind::fd, false, true},
}};
// Every other system call of the compiled tracer's cohort, counted by number (the request).
constexpr TracedCall kOther = {JB_CALL_SYSCALL_OTHER, "syscall:other", ArgKind::request, false};
static_assert(JB_CALL_SYSCALL_OTHER == JB_CALL_OFF_CPU_RUNNABLE + 1);
static_assert(JB_ROLE_BRIDGE_WRITER == 1 && JB_ROLE_WORKLOAD == 0);  // thread_role_of
static_assert(JB_CALL_OFF_CPU_BLOCKED == kCalls.size() && JB_CALL_OFF_CPU_RUNNABLE == 15 &&
              JB_CALL_OFF_CPU_RUNNABLE < JB_HINT_CALLS);

// Requests a runtime and a storage engine actually make, bounded on purpose: the startup pattern
// of the upstream issue (terminal probes on stdio) and the file and block ioctls of a database.
// x86-64 / asm-generic numbering.
constexpr std::pair<std::uint64_t, std::string_view> kIoctls[] = {
    {0x5401, "TCGETS"},
    {0x5402, "TCSETS"},
    {0x5403, "TCSETSW"},
    {0x5404, "TCSETSF"},
    {0x540B, "TCFLSH"},
    {0x540E, "TIOCSCTTY"},
    {0x540F, "TIOCGPGRP"},
    {0x5410, "TIOCSPGRP"},
    {0x5413, "TIOCGWINSZ"},
    {0x5414, "TIOCSWINSZ"},
    {0x541B, "FIONREAD"},
    {0x5421, "FIONBIO"},
    {0x5422, "TIOCNOTTY"},
    {0x5429, "TIOCGSID"},
    {0x5450, "FIONCLEX"},
    {0x5451, "FIOCLEX"},
    {0x5452, "FIOASYNC"},
    {0x5460, "FIOQSIZE"},
    {0x80045430, "TIOCGPTN"},
    {0x40045431, "TIOCSPTLCK"},
    {0x1, "FIBMAP"},
    {0x2, "FIGETBSZ"},
    {0x1268, "BLKSSZGET"},
    {0x80081272, "BLKGETSIZE64"},
    {0x80086601, "FS_IOC_GETFLAGS"},
    {0x40086602, "FS_IOC_SETFLAGS"},
    {0xC020660B, "FS_IOC_FIEMAP"},
    {0x40049409, "FICLONE"},
    {0x4020940D, "FICLONERANGE"},
    {0x8915, "SIOCGIFADDR"},
};

constexpr std::pair<std::uint64_t, std::string_view> kFcntls[] = {
    {0, "F_DUPFD"},
    {1, "F_GETFD"},
    {2, "F_SETFD"},
    {3, "F_GETFL"},
    {4, "F_SETFL"},
    {5, "F_GETLK"},
    {6, "F_SETLK"},
    {7, "F_SETLKW"},
    {8, "F_SETOWN"},
    {9, "F_GETOWN"},
    {10, "F_SETSIG"},
    {11, "F_GETSIG"},
    {36, "F_OFD_GETLK"},
    {37, "F_OFD_SETLK"},
    {38, "F_OFD_SETLKW"},
    {1024, "F_SETLEASE"},
    {1025, "F_GETLEASE"},
    {1026, "F_NOTIFY"},
    {1030, "F_DUPFD_CLOEXEC"},
    {1031, "F_SETPIPE_SZ"},
    {1032, "F_GETPIPE_SZ"},
    {1033, "F_ADD_SEALS"},
    {1034, "F_GET_SEALS"},
};

template <std::size_t N>
std::optional<std::string_view> lookup(const std::pair<std::uint64_t, std::string_view> (&table)[N],
                                       std::uint64_t code) {
  for (const auto& [value, name] : table) {
    if (value == code) return name;
  }
  return std::nullopt;
}

std::string flock_name(std::uint64_t op) {
  std::string out;
  const auto add = [&](std::string_view part) {
    if (!out.empty()) out += '|';
    out += part;
  };
  std::uint64_t rest = op;
  for (const auto& [bit, name] : {std::pair<std::uint64_t, std::string_view>{1, "LOCK_SH"},
                                  {2, "LOCK_EX"},
                                  {8, "LOCK_UN"},
                                  {4, "LOCK_NB"}}) {
    if (rest & bit) {
      add(name);
      rest &= ~bit;
    }
  }
  if (rest != 0 || out.empty()) add(fmt::format("0x{:x}", rest));
  return out;
}

}  // namespace

std::span<const TracedCall> traced_calls() { return kCalls; }

std::span<const TracedCall> off_cpu_calls() { return kOffCpu; }

const TracedCall& other_syscalls() { return kOther; }

const TracedCall* find_call(std::string_view name) {
  for (const std::span<const TracedCall> table : {traced_calls(), off_cpu_calls()}) {
    for (const auto& c : table) {
      if (c.name == name) return &c;
    }
  }
  return name == kOther.name ? &kOther : nullptr;
}

const TracedCall* call_by_id(int id) {
  if (id < 0) return nullptr;
  const auto i = static_cast<std::size_t>(id);
  if (i < kCalls.size()) return &kCalls[i];
  if (i - kCalls.size() < kOffCpu.size()) return &kOffCpu[i - kCalls.size()];
  return id == kOther.id ? &kOther : nullptr;
}

bool is_canary_call(std::string_view name) {
  return name == "faccessat" || name == "faccessat2" || name == "access";
}

std::optional<int> phase_number(std::string_view name) {
  for (int i = 0; i < kPhaseCount; ++i) {
    if (kPhases[i] == name) return i;
  }
  return std::nullopt;
}

std::string syscall_name(std::uint64_t nr) {
  static constexpr std::pair<std::uint64_t, std::string_view> kNames[] = {
#include "syscall_names.inc"
      {~std::uint64_t{0}, ""}};  // the end, and a row where the header gave none
  for (const auto& [number, name] : kNames) {
    if (number == nr && !name.empty()) return std::string(name);
  }
  return fmt::format("syscall {}", nr);
}

std::string request_name(const TracedCall& call, std::uint64_t request) {
  if (call.kind == ArgKind::request) {
    return request == kOutsideSyscall ? "outside a system call" : syscall_name(request - 1);
  }
  if (call.name == "ioctl") {
    // The kernel's request is an unsigned int; a sign-extended copy names the same request.
    const std::uint64_t code = request & 0xffffffffu;
    if (auto name = lookup(kIoctls, code)) return std::string(*name);
    return fmt::format("0x{:x}", code);
  }
  if (call.name == "fcntl") {
    if (auto name = lookup(kFcntls, request)) return std::string(*name);
    return fmt::format("F_{}", request);
  }
  if (call.name == "flock") return flock_name(request);
  return fmt::format("{}", request);
}

std::string errno_name(int error) {
  if (const char* name = jbench::errno_name(error)) return name;
  return fmt::format("E{}", error);
}

std::optional<int> errno_from_name(std::string_view name) {
  // glibc names every errno below 134 on Linux; the loop is bounded and runs only on errors.
  for (int e = 1; e < 200; ++e) {
    const char* known = jbench::errno_name(e);
    if (known && name == known) return e;
  }
  return std::nullopt;
}

}  // namespace jbench::collectors::syscall_detail
