#include "bpftrace_script.h"

#include <fmt/format.h>

#include "syscall_table.h"

namespace jbench::collectors::syscall_detail {
namespace {

// A member's first traced call announces its start time (checked against the registration, and
// the only source of it for forked members), once: @cohort holds 2 until then, 1 after. The
// thread group leader's start time: the first call may come from any thread.
constexpr std::string_view kAnnounce =
    "    if ($c == 2) {\n"
    "      @cohort[pid] = 1;\n"
    "      printf(\"P %d %llu %d %llu\\n\", pid, curtask->group_leader->start_boottime,\n"
    "             curtask->real_parent->tgid, nsecs);\n"
    "    }\n";

// The file behind descriptor $fd, read from the task's descriptor table: the superblock's device
// and the inode. An invalid descriptor leaves both 0.
constexpr std::string_view kIdentity =
    "  $dev = (uint64)0;\n"
    "  $ino = (uint64)0;\n"
    "  if ($fd >= 0 && $fd < (int64)curtask->files->fdt->max_fds) {\n"
    "    $file = *(curtask->files->fdt->fd + $fd);\n"
    "    if ($file != 0) {\n"
    "      $dev = (uint64)$file->f_inode->i_sb->s_dev;\n"
    "      $ino = (uint64)$file->f_inode->i_ino;\n"
    "    }\n"
    "  }\n";

// Two more spaces on every line (the block sits inside an if).
std::string indented(std::string_view block) {
  std::string out;
  std::size_t start = 0;
  while (start < block.size()) {
    const auto end = block.find('\n', start);
    out += "  ";
    out += block.substr(start, end - start + 1);
    start = end == std::string_view::npos ? block.size() : end + 1;
  }
  return out;
}

std::string fd_expression(const TracedCall& c) {
  switch (c.kind) {
    case ArgKind::path:
      return c.has_dfd ? "(int64)(int32)args->dfd" : "(int64)-100";  // AT_FDCWD
    case ArgKind::fd:
    case ArgKind::fd_request:
      return "(int64)args->fd";
    case ArgKind::request:  // the compiled tracer's waits off the CPU: not in a script
      break;
  }
  return "(int64)-1";
}

std::string request_expression(const TracedCall& c) {
  return c.kind == ArgKind::fd_request ? "(uint64)args->cmd" : "(uint64)0";
}

std::string pointer_expression(const TracedCall& c) {
  return c.kind == ArgKind::path ? "(uint64)args->filename" : "(uint64)0";
}

// Entry probes test membership in their body rather than in a predicate: one map lookup instead
// of two (the predicate's and the body's), on every traced call of every process.
void enter_probe(std::string& out, const TracedCall& c) {
  out += fmt::format("tracepoint:syscalls:sys_enter_{} {{\n", c.name);
  out += "  $c = @cohort[pid];\n  if ($c != 0) {\n";
  out += kAnnounce;
  // (entry time, phase, descriptor, request, call id, path pointer). The path is read at exit:
  // at entry its page may not be mapped yet (a string a forked child never touched), and a
  // BPF program cannot fault it in; by exit the kernel has copied it, so the page is there.
  out += fmt::format("    @e[tid] = (nsecs, @phase, {}, {}, {}, {});\n", fd_expression(c),
                     request_expression(c), c.id, pointer_expression(c));
  out += "  }\n}\n";
}

// The exit of a call whose entry was seen and is this call. (Here a predicate, not a test in the
// body: without it the copy of the entry tuple takes more stack, and the full probes of the opens
// would pass BPF's 512 bytes.)
void exit_head(std::string& out, const TracedCall& c) {
  out += fmt::format("tracepoint:syscalls:sys_exit_{} /@e[tid].0/ {{\n", c.name);
  out += "  $e = @e[tid];\n  delete(@e[tid]);\n";
  out += fmt::format("  if ($e.4 == {}) {{\n", c.id);
}

void exit_probe_light(std::string& out, const TracedCall& c) {
  exit_head(out, c);
  out += "    $d = nsecs - $e.0;\n";
  out += fmt::format(
      "    @s[pid, $e.1, {0}] = stats($d);\n"
      "    @x[pid, $e.1, {0}] = max($d);\n"
      "    @h[pid, $e.1, {0}] = hist($d);\n"
      "    if (args->ret < 0) {{ @r[pid, $e.1, {0}] = count(); }}\n",
      c.id);
  if (c.kind == ArgKind::fd_request) {
    out += fmt::format(
        "    @q[pid, $e.1, {0}, $e.3] = count();\n"
        "    if (args->ret < 0) {{ @qe[pid, $e.1, {0}, $e.3] = count(); }}\n",
        c.id);
  }
  out += "  }\n}\n";
}

void exit_probe_full(std::string& out, const TracedCall& c) {
  exit_head(out, c);
  // Opens: the file the returned descriptor names; others: the file of the descriptor used.
  out += c.kind == ArgKind::path ? "    $fd = (int64)args->ret;\n" : "    $fd = $e.2;\n";
  out += indented(kIdentity);
  const std::string common =
      fmt::format("\"C {} %d %d %llu %llu %lld %lld %lld %llu %llu %llu %llu", c.id);
  const std::string values =
      "pid, tid, $e.0, nsecs - $e.0, $e.1, $e.2, args->ret, $e.3, $dev >> 20, $dev & 0xfffff, "
      "$ino";
  out += fmt::format("    printf({}\\n\", {});\n", common, values);
  // The path on a line of its own: with the call's other fields one printf would pass the BPF
  // stack limit. The reader pairs it with the call by (tid, entry time).
  if (c.kind == ArgKind::path) out += "    printf(\"O %d %llu %s\\n\", tid, $e.0, str($e.5));\n";
  out += "  }\n}\n";
}

void canary_probe(std::string& out, std::string_view name) {
  // Read at exit, for the same reason as paths (enter_probe).
  out += fmt::format(
      "tracepoint:syscalls:sys_enter_{} /@cohort[pid]/ {{\n"
      "  @k[tid] = (uint64)args->filename;\n"
      "}}\n"
      "tracepoint:syscalls:sys_exit_{} /@k[tid]/ {{\n"
      "  $p = @k[tid];\n"
      "  delete(@k[tid]);\n"
      "  if (strncmp(str($p), \"{}\", {}) == 0) {{\n"
      "    printf(\"K %d %d %llu %s\\n\", pid, tid, nsecs, str($p));\n"
      "  }}\n"
      "}}\n",
      name, name, kCanaryPrefix, kCanaryPrefix.size());
}

}  // namespace

std::string bpftrace_script(const ScriptSpec& spec) {
  std::string out;
  out += "// Generated by jbench's syscall collector for one run (docs/collectors/syscall.md).\n";
  out += "BEGIN {\n";
  for (pid_t p : spec.cohort) out += fmt::format("  @cohort[{}] = 2;\n", p);
  out += "  @phase = 0;\n";
  out += "  printf(\"B 1\\n\");\n}\n";
  // Membership follows processes, not threads: a thread's calls carry its process's pid.
  out +=
      "tracepoint:task:task_newtask /@cohort[pid] && (args->clone_flags & 0x10000) == 0/ {\n"
      "  @cohort[args->pid] = 2;\n"
      "  printf(\"F %d %d %llu\\n\", pid, args->pid, nsecs);\n"
      "}\n"
      "tracepoint:sched:sched_process_exit /@cohort[tid]/ {\n"
      "  delete(@cohort[tid]);\n"
      "}\n";
  out += fmt::format(
      "tracepoint:syscalls:sys_enter_getpgid /pid == {0}/ {{\n"
      "  if (args->pid >= {1}) {{\n"
      "    @phase = args->pid - {1};\n"
      "    printf(\"M %d %llu\\n\", @phase, nsecs);\n"
      "  }} else if (args->pid >= {2}) {{\n"
      "    printf(\"S %d %llu\\n\", args->pid - {2}, nsecs);\n"
      "  }} else if (args->pid >= {3}) {{\n"
      "    @cohort[args->pid - {3}] = 2;\n"
      "    printf(\"J %d %llu\\n\", args->pid - {3}, nsecs);\n"
      "  }}\n"
      "}}\n",
      spec.harness_pid, kPhaseMarkerBase, kSyncMarkerBase, kJoinMarkerBase);
  for (std::string_view name : spec.canary_calls) canary_probe(out, name);
  for (std::string_view name : spec.calls) {
    const TracedCall* c = find_call(name);
    if (!c) continue;
    enter_probe(out, *c);
    if (spec.detail == Detail::full) {
      exit_probe_full(out, *c);
    } else {
      exit_probe_light(out, *c);
    }
  }
  // Only the aggregates are printed at exit: the bookkeeping maps are cleared first.
  out += "END {\n  clear(@e);\n  clear(@cohort);\n  clear(@phase);\n";
  if (!spec.canary_calls.empty()) out += "  clear(@k);\n";
  out += "}\n";
  return out;
}

}  // namespace jbench::collectors::syscall_detail
