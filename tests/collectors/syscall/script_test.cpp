// The generated bpftrace program: scoped to the cohort in the kernel, phase markers only from the
// harness, one probe pair per traced call available on the host, per-call output only in full.
// (The integration tests run it under real bpftrace.)
#include <gtest/gtest.h>

#include "bpftrace_script.h"
#include "syscall_table.h"

namespace jbench::collectors::syscall_detail {
namespace {

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

ScriptSpec spec(Detail detail) {
  ScriptSpec s;
  s.detail = detail;
  s.harness_pid = 4242;
  s.cohort = {101, 202};
  s.calls = {"openat", "read", "ioctl"};
  s.canary_calls = {"faccessat"};
  return s;
}

TEST(BpftraceScript, SeedsTheCohortAndFollowsProcessesNotThreads) {
  const std::string text = bpftrace_script(spec(Detail::light));
  EXPECT_TRUE(has(text, "@cohort[101] = 2;"));
  EXPECT_TRUE(has(text, "@cohort[202] = 2;"));
  EXPECT_TRUE(has(text,
                  "tracepoint:task:task_newtask /@cohort[pid] && (args->clone_flags & "
                  "0x10000) == 0/"));
  EXPECT_TRUE(has(text, "tracepoint:sched:sched_process_exit /@cohort[tid]/"));
  // Every traced call is filtered on membership at entry.
  EXPECT_TRUE(
      has(text, "tracepoint:syscalls:sys_enter_read {\n  $c = @cohort[pid];\n  if ($c != 0) {"));
  EXPECT_TRUE(has(text, "tracepoint:syscalls:sys_enter_faccessat /@cohort[pid]/"));
  EXPECT_TRUE(has(text, "tracepoint:syscalls:sys_exit_faccessat /@k[tid]/"));
}

TEST(BpftraceScript, OnlyTheHarnessMovesThePhase) {
  const std::string text = bpftrace_script(spec(Detail::light));
  EXPECT_TRUE(has(text, "tracepoint:syscalls:sys_enter_getpgid /pid == 4242/"));
  EXPECT_TRUE(has(text, std::to_string(kPhaseMarkerBase)));
  EXPECT_TRUE(has(text, std::to_string(kSyncMarkerBase)));
  EXPECT_TRUE(has(text, "printf(\"S %d %llu\\n\""));
  EXPECT_TRUE(has(text, std::to_string(kJoinMarkerBase)));
}

TEST(BpftraceScript, ProbesExactlyTheCallsTheHostHas) {
  const std::string text = bpftrace_script(spec(Detail::full));
  for (const char* call : {"openat", "read", "ioctl"}) {
    EXPECT_TRUE(has(text, std::string("sys_enter_") + call + " ")) << call;
    EXPECT_TRUE(has(text, std::string("sys_exit_") + call + " ")) << call;
  }
  EXPECT_FALSE(has(text, "sys_enter_open "));
  EXPECT_FALSE(has(text, "sys_enter_fsync "));
}

TEST(BpftraceScript, LightAggregatesInTheKernelAndPrintsNoCalls) {
  const std::string text = bpftrace_script(spec(Detail::light));
  EXPECT_TRUE(has(text, "= hist($d);"));
  EXPECT_TRUE(has(text, "= stats($d);"));
  EXPECT_TRUE(has(text, "@q[pid, $e.1, 13, $e.3] = count();")) << "ioctl requests";
  EXPECT_FALSE(has(text, "printf(\"C "));
  EXPECT_FALSE(has(text, "printf(\"O "));
}

TEST(BpftraceScript, FullPrintsOneLinePerCallAndThePathsOfOpens) {
  const std::string text = bpftrace_script(spec(Detail::full));
  EXPECT_TRUE(has(text, "printf(\"C 1 "));   // openat
  EXPECT_TRUE(has(text, "printf(\"C 3 "));   // read
  EXPECT_TRUE(has(text, "printf(\"C 13 "));  // ioctl
  // Paths are read at exit, from the pointer kept at entry (by then the page is mapped).
  EXPECT_TRUE(has(text, "(uint64)args->filename);"));
  EXPECT_TRUE(has(text, "printf(\"O %d %llu %s\\n\", tid, $e.0, str($e.5));"));
  EXPECT_FALSE(has(text, "hist("));
}

TEST(BpftraceScript, BookkeepingMapsAreClearedSoOnlyAggregatesArePrinted) {
  const std::string text = bpftrace_script(spec(Detail::light));
  const auto end = text.find("END {");
  ASSERT_NE(end, std::string::npos);
  for (const char* map : {"clear(@e);", "clear(@cohort);", "clear(@phase);", "clear(@k);"}) {
    EXPECT_NE(text.find(map, end), std::string::npos) << map;
  }
}

}  // namespace
}  // namespace jbench::collectors::syscall_detail
