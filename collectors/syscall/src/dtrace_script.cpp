#include "dtrace_script.h"

#include <fmt/format.h>

#include "jb_events_writer_thread.h"
#include "syscall_table.h"

namespace jbench::collectors::syscall_detail {
namespace {

// The head of every D program: quiet (only what it prints), its buffers read 20 times a second
// (the harness waits for its marker lines), paths up to kDtraceStringLimit.
std::string options(Detail detail) {
  std::string out =
      "#pragma D option quiet\n"
      "#pragma D option switchrate=20hz\n";
  out += fmt::format("#pragma D option strsize={}\n", kDtraceStringLimit);
  // Full prints a line per call: a principal buffer of 16 MiB per CPU absorbs bursts between
  // the consumer's reads (DTrace counts what does not fit as drops, which fail the run).
  if (detail == Detail::full) out += "#pragma D option bufsize=16m\n";
  return out;
}

std::string fd_expression(const TracedCall& c) {
  if (c.kind == ArgKind::path) return c.has_dfd ? "(int)arg0" : "-100";  // AT_FDCWD
  return "(int)arg0";
}

std::string path_argument(const TracedCall& c) { return c.has_dfd ? "arg1" : "arg0"; }

// A member's first traced call announces its start time (the thread group leader's, as the
// bpftrace program does), once.
void announce_clause(std::string& out, std::string_view name) {
  out += fmt::format(
      "syscall::{}:entry /cohort[pid] == 2/ {{\n"
      "  cohort[pid] = 1;\n"
      "  printf(\"P %d %u %d %u\\n\", pid, curthread->group_leader->start_boottime, ppid,\n"
      "         timestamp);\n"
      "}}\n",
      name);
}

// A thread's role, from its name at its first traced call (the bridge's writer names itself
// after it starts): 1 for the writer, 0 for the workload's threads. Kept for the thread's life.
void role_clause(std::string& out, std::string_view name) {
  out += fmt::format(
      "syscall::{}:entry /cohort[pid] && !self->rk/ {{\n"
      "  self->rk = 1;\n"
      "  self->role = stringof(curthread->comm) == \"{}\" ? 1 : 0;\n"
      "}}\n",
      name, JB_EVENTS_WRITER_THREAD_NAME);
}

// Entry: the time, the phase in force and the call (its id plus one, so that 0 means "no call of
// ours under way"); the request where the call has one; in full, the descriptor and the path.
void enter_clause(std::string& out, const TracedCall& c, Detail detail) {
  out += fmt::format("syscall::{}:entry /cohort[pid]/ {{\n", c.name);
  out += fmt::format("  self->t = timestamp;\n  self->ph = phase;\n  self->c = {};\n", c.id + 1);
  if (c.kind == ArgKind::fd_request) out += "  self->rq = (uint64_t)arg1;\n";
  if (detail == Detail::full) {
    if (c.kind != ArgKind::fd_request) out += "  self->rq = 0;\n";
    out += fmt::format("  self->fd = {};\n", fd_expression(c));
    if (c.kind == ArgKind::path) out += fmt::format("  self->p = {};\n", path_argument(c));
  }
  out += "}\n";
}

// Light: sums, maxima and log2 histograms in the kernel; the histogram's counts are the calls.
// Errors in a clause of their own, which only a failed call enters.
void exit_light(std::string& out, const TracedCall& c) {
  const std::string key = fmt::format("pid, self->ph, {}, self->role", c.id);
  out += fmt::format("syscall::{}:return /self->c == {} && errno != 0/ {{\n", c.name, c.id + 1);
  out += fmt::format("  @r[{}] = count();\n", key);
  if (c.kind == ArgKind::fd_request) out += fmt::format("  @qe[{}, self->rq] = count();\n", key);
  out += "}\n";
  out += fmt::format("syscall::{}:return /self->c == {}/ {{\n", c.name, c.id + 1);
  out += "  this->d = timestamp - self->t;\n";
  out += fmt::format(
      "  @t[{0}] = sum(this->d);\n"
      "  @x[{0}] = max(this->d);\n"
      "  @h[{0}] = quantize(this->d);\n",
      key);
  if (c.kind == ArgKind::fd_request) out += fmt::format("  @q[{}, self->rq] = count();\n", key);
}

// The file behind the descriptor (an open's: the one it returned), read from the task's table.
void exit_full(std::string& out, const TracedCall& c) {
  out += fmt::format("syscall::{}:return /self->c == {}/ {{\n", c.name, c.id + 1);
  out += c.kind == ArgKind::path ? "  this->fd = (int)arg1;\n" : "  this->fd = self->fd;\n";
  out +=
      "  this->f = this->fd >= 0 && this->fd < curthread->files->fdt->max_fds ?\n"
      "      curthread->files->fdt->fd[this->fd] : 0;\n"
      "  this->dev = this->f ? this->f->f_inode->i_sb->s_dev : 0;\n"
      "  this->ino = this->f ? this->f->f_inode->i_ino : 0;\n";
  out += fmt::format(
      "  printf(\"C {} %d %d %u %u %d %d %d %u %u %u %u %d\\n\", pid, tid, self->t,\n"
      "         timestamp - self->t, self->ph, self->fd, (int64_t)arg1, self->rq,\n"
      "         this->dev >> 20, this->dev & 0xfffff, this->ino, self->role);\n",
      c.id);
  if (c.kind == ArgKind::path) {
    out += "  printf(\"O %d %u %s\\n\", tid, self->t, copyinstr(self->p));\n";
  }
}

void exit_clause(std::string& out, const TracedCall& c, Detail detail) {
  if (detail == Detail::full) {
    exit_full(out, c);
  } else {
    exit_light(out, c);
  }
  // Only the marker of a call under way is cleared: the others are overwritten at the next entry.
  out += "  self->c = 0;\n";
  if (detail == Detail::full && c.kind == ArgKind::path) out += "  self->p = 0;\n";
  out += "}\n";
}

// The path is read at return, as in the bpftrace program: by then the kernel has faulted it in.
void canary_clauses(std::string& out, std::string_view name, bool has_dfd) {
  out += fmt::format(
      "syscall::{0}:entry /cohort[pid]/ {{\n"
      "  self->k = {1};\n"
      "}}\n"
      "syscall::{0}:return /self->k && index(copyinstr(self->k), \"{2}\") == 0/ {{\n"
      "  printf(\"K %d %d %u %s\\n\", pid, tid, timestamp, copyinstr(self->k));\n"
      "}}\n"
      "syscall::{0}:return /self->k/ {{\n"
      "  self->k = 0;\n"
      "}}\n",
      name, has_dfd ? "arg1" : "arg0", kCanaryPrefix);
}

void markers(std::string& out, pid_t harness) {
  out += fmt::format(
      "syscall::getpgid:entry /pid == {0} && arg0 >= {1}/ {{\n"
      "  phase = arg0 - {1};\n"
      "  printf(\"M %d %u\\n\", phase, timestamp);\n"
      "}}\n"
      "syscall::getpgid:entry /pid == {0} && arg0 >= {2} && arg0 < {1}/ {{\n"
      "  printf(\"S %d %u\\n\", arg0 - {2}, timestamp);\n"
      "}}\n"
      "syscall::getpgid:entry /pid == {0} && arg0 >= {3} && arg0 < {2}/ {{\n"
      "  cohort[arg0 - {3}] = 2;\n"
      "  printf(\"J %d %u\\n\", arg0 - {3}, timestamp);\n"
      "}}\n",
      harness, kPhaseMarkerBase, kSyncMarkerBase, kJoinMarkerBase);
}

// Membership follows processes: a member's new process joins (a new thread of it has its pid),
// an exiting leader leaves.
void membership(std::string& out) {
  out +=
      "proc:::create /cohort[pid] && args[0]->pr_pid != pid/ {\n"
      "  cohort[args[0]->pr_pid] = 2;\n"
      "  printf(\"F %d %d %u\\n\", pid, args[0]->pr_pid, timestamp);\n"
      "}\n"
      "proc:::exit /cohort[pid] && tid == pid/ {\n"
      "  cohort[pid] = 0;\n"
      "}\n";
}

// On-CPU samples (full): every CPU at kDtraceSampleHz, a cohort thread's user stack. arg0 is the
// kernel's pc when the sample interrupted the kernel.
void sample_clause(std::string& out) {
  out += fmt::format(
      "profile-{} /cohort[pid]/ {{\n"
      "  printf(\"X %d %d %u %d %d %d\\n\", pid, tid, timestamp, phase, self->role, "
      "arg0 != 0 ? 1 : 0);\n"
      "  ustack({});\n"
      "}}\n",
      kDtraceSampleHz, kDtraceStackFrames);
}

void print_aggregations(std::string& out) {
  out += "END {\n";
  for (const char* a : {"t", "x", "r"}) {
    out += fmt::format("  printa(\"A {0} %d %d %d %d %@u\\n\", @{0});\n", a);
  }
  out +=
      "  printa(\"A q %d %d %d %d %u %@u\\n\", @q);\n"
      "  printa(\"A qe %d %d %d %d %u %@u\\n\", @qe);\n"
      "  printa(\"A h %d %d %d %d %@u\\n\", @h);\n"
      "}\n";
}

}  // namespace

std::string dtrace_script(const ScriptSpec& spec) {
  std::string out;
  out += "/* Generated by jbench's syscall collector for one run (docs/collectors/dtrace.md). */\n";
  out += options(spec.detail);
  out += "int phase;\nint cohort[int];\nself int rk;\nself int role;\nself int c;\n";
  out += "BEGIN {\n";
  for (pid_t p : spec.cohort) out += fmt::format("  cohort[{}] = 2;\n", p);
  out += "  phase = 0;\n  printf(\"B 1\\n\");\n}\n";
  membership(out);
  markers(out, spec.harness_pid);
  for (std::string_view name : spec.canary_calls) canary_clauses(out, name, name != "access");
  bool has_requests = false;
  for (std::string_view name : spec.calls) {
    const TracedCall* c = find_call(name);
    if (!c) continue;
    has_requests = has_requests || c->kind == ArgKind::fd_request;
    announce_clause(out, c->name);
    role_clause(out, c->name);
    enter_clause(out, *c, spec.detail);
    exit_clause(out, *c, spec.detail);
  }
  if (spec.detail == Detail::full) sample_clause(out);
  if (spec.detail == Detail::light) {
    // printa of an aggregation no clause names is an error: keep one of each, empty.
    if (!has_requests)
      out += "BEGIN /0/ {\n  @q[0, 0, 0, 0, 0] = count();\n  @qe[0, 0, 0, 0, 0] = count();\n}\n";
    print_aggregations(out);
  }
  return out;
}

}  // namespace jbench::collectors::syscall_detail
