// The DTrace backend's pure parts: the generated D program, the reader of what it printed
// (fixtures/dtrace_light.txt is real output of DTrace for Linux 2.0 on a light run of
// jbench-syscall-target, one fork in measure), dtrace's own reports of lost events, and
// `dtrace -V`. (dtrace_backend_test.cpp runs the program under a real DTrace.)
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "dtrace_output.h"
#include "dtrace_script.h"
#include "jbench/host_caps/dtrace.h"
#include "syscall_table.h"

namespace jbench::collectors::syscall_detail {
namespace {

bool mentions(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

ScriptSpec d_spec(Detail detail) {
  ScriptSpec s;
  s.detail = detail;
  s.harness_pid = 4242;
  s.cohort = {101, 202};
  s.calls = {"openat", "read", "ioctl"};
  s.canary_calls = {"faccessat"};
  return s;
}

ProgramObservations read_fixture(const std::string& name) {
  std::ifstream in(std::string(JBENCH_SYSCALL_FIXTURES) + "/" + name);
  EXPECT_TRUE(in) << name;
  DtraceReader reader;
  for (std::string line; std::getline(in, line);) reader.line(line);
  return reader.finish();
}

TEST(DtraceScript, SeedsTheCohortAndFollowsProcessesNotThreads) {
  const std::string text = dtrace_script(d_spec(Detail::light));
  EXPECT_TRUE(mentions(text, "cohort[101] = 2;"));
  EXPECT_TRUE(mentions(text, "cohort[202] = 2;"));
  EXPECT_TRUE(mentions(text, "proc:::create /cohort[pid] && args[0]->pr_pid != pid/"));
  EXPECT_TRUE(mentions(text, "proc:::exit /cohort[pid] && tid == pid/"));
  EXPECT_TRUE(mentions(text, "syscall::read:entry /cohort[pid]/"));
  EXPECT_TRUE(mentions(text, "syscall::faccessat:entry /cohort[pid]/"));
}

TEST(DtraceScript, OnlyTheHarnessMovesThePhase) {
  const std::string text = dtrace_script(d_spec(Detail::light));
  EXPECT_TRUE(mentions(text, "syscall::getpgid:entry /pid == 4242 && arg0 >= " +
                                 std::to_string(kPhaseMarkerBase) + "/"));
  EXPECT_TRUE(mentions(text, std::to_string(kSyncMarkerBase)));
  EXPECT_TRUE(mentions(text, std::to_string(kJoinMarkerBase)));
}

TEST(DtraceScript, ProbesExactlyTheCallsItIsGiven) {
  const std::string text = dtrace_script(d_spec(Detail::full));
  for (const char* call : {"openat", "read", "ioctl"}) {
    EXPECT_TRUE(mentions(text, std::string("syscall::") + call + ":entry")) << call;
    EXPECT_TRUE(mentions(text, std::string("syscall::") + call + ":return")) << call;
  }
  EXPECT_FALSE(mentions(text, "syscall::fsync:"));
  EXPECT_FALSE(mentions(text, "syscall::open:"));
}

TEST(DtraceScript, LightAggregatesInTheKernelAndFullPrintsEveryCall) {
  const std::string light = dtrace_script(d_spec(Detail::light));
  EXPECT_TRUE(mentions(light, "@h[pid, self->ph, 3, self->role] = quantize(this->d);"));
  EXPECT_TRUE(mentions(light, "@q[pid, self->ph, 13, self->role, self->rq] = count();"));
  EXPECT_TRUE(mentions(light, "printa(\"A h %d %d %d %d %@u\\n\", @h);"));
  EXPECT_FALSE(mentions(light, "printf(\"C "));
  const std::string full = dtrace_script(d_spec(Detail::full));
  EXPECT_TRUE(mentions(full, "printf(\"C 3 "));
  EXPECT_TRUE(mentions(full, "printf(\"O %d %u %s\\n\", tid, self->t, copyinstr(self->p));"));
  EXPECT_TRUE(mentions(full, "#pragma D option bufsize=16m"));
  EXPECT_TRUE(mentions(full, "profile-99 /cohort[pid]/"));
  EXPECT_TRUE(mentions(full, "ustack(32);"));
  EXPECT_FALSE(mentions(full, "printa("));
  EXPECT_FALSE(mentions(light, "profile-"));
}

TEST(DtraceScript, TellsTheBridgeWriterThreadApartByItsNameAtItsFirstTracedCall) {
  const std::string text = dtrace_script(d_spec(Detail::light));
  EXPECT_TRUE(mentions(text,
                       "syscall::read:entry /cohort[pid] && !self->rk/ {\n  self->rk = 1;\n"
                       "  self->role = stringof(curthread->comm) == \"jbench-writer\""));
}

TEST(DtraceReader, ACallLineMayNameTheThreadsRole) {
  DtraceReader reader;
  reader.line("C 3 101 102 1000 20 2 3 4 0 254 0 810 1");
  reader.line("C 3 101 101 2000 20 2 3 4 0 254 0 810 0");
  reader.line("C 3 101 101 3000 20 2 3 4 0 254 0 810");  // as the bpftrace program prints it
  reader.line("C 3 101 101 4000 20 2 3 4 0 254 0 810 2");
  const auto obs = reader.finish();
  ASSERT_EQ(obs.calls.size(), 3u);
  EXPECT_EQ(obs.calls[0].role, ThreadRole::bridge_writer);
  EXPECT_EQ(obs.calls[1].role, ThreadRole::workload);
  EXPECT_EQ(obs.calls[2].role, ThreadRole::workload);
  EXPECT_EQ(obs.malformed, 1u);
}

TEST(DtraceReader, RealLightOutputBecomesConsistentTotals) {
  const auto obs = read_fixture("dtrace_light.txt");
  EXPECT_EQ(obs.malformed, 0u) << (obs.malformed_examples.empty() ? "" : obs.malformed_examples[0]);
  EXPECT_TRUE(obs.began);
  // DTrace prints each CPU's buffer in turn: lines come out of time order (here M 3 before M 2).
  // In time order the markers are the four phases.
  auto markers = obs.markers;
  std::sort(markers.begin(), markers.end(),
            [](const PhaseMarker& a, const PhaseMarker& b) { return a.t_ns < b.t_ns; });
  ASSERT_EQ(markers.size(), 4u);
  for (int phase = 0; phase < 4; ++phase) EXPECT_EQ(markers[phase].phase, phase);
  ASSERT_EQ(obs.canaries.size(), 1u);
  EXPECT_TRUE(obs.canaries[0].path.starts_with(kCanaryPrefix));
  ASSERT_EQ(obs.forks.size(), 1u);
  EXPECT_EQ(obs.processes.size(), 2u);  // the member and its fork, each announced once
  EXPECT_TRUE(obs.calls.empty());
  ASSERT_FALSE(obs.totals.empty());
  for (const auto& [key, t] : obs.totals) {
    const std::string where = std::to_string(key.pid) + "/" + std::to_string(key.phase) + "/" +
                              std::string(call_by_id(key.call)->name);
    std::uint64_t in_buckets = 0;
    for (const auto& [lower, n] : t.log2_buckets) {
      in_buckets += n;
      EXPECT_EQ(lower & (lower == 0 ? 0 : lower - 1), 0u) << "a bucket bound is a power of two";
    }
    EXPECT_GT(t.count, 0u) << where;
    EXPECT_EQ(in_buckets, t.count) << where;
    EXPECT_LE(t.errors, t.count) << where;
    EXPECT_LE(t.max_ns, t.total_ns) << where;
    if (call_by_id(key.call)->kind == ArgKind::fd_request) {
      std::uint64_t requests = 0;
      for (const auto& [code, n] : t.requests) requests += n;
      EXPECT_EQ(requests, t.count) << where;
    }
  }
}

TEST(DtraceReader, DropsAndFaultedActionsAreLostEvents) {
  DtraceReader reader;
  reader.stderr_line("dtrace: 12 drops on CPU 1");
  reader.stderr_line("dtrace: 3 dynamic variable drops");
  reader.stderr_line("dtrace: 2 aggregation drops on CPU 0");
  reader.stderr_line(
      "dtrace: error on enabled probe ID 7 (ID 3595: syscall:vmlinux:faccessat:return): invalid "
      "address (0x7ff0) in action #1");
  reader.stderr_line("dtrace: script 'syscall.dtrace.d' matched 61 probes");
  reader.stderr_line("");
  EXPECT_EQ(reader.finish().lost, 18u);
  ASSERT_EQ(reader.errors().size(), 1u);
  EXPECT_TRUE(mentions(reader.errors()[0], "invalid address"));
}

TEST(DtraceReader, EveryMalformedLineIsCountedAndQuoted) {
  DtraceReader reader;
  reader.line("A t 101 9 3 0 5");      // no such phase
  reader.line("A t 101 2 999 0 5");    // no such call
  reader.line("A t 101 2 3 7 5");      // no such role
  reader.line("A t 101 2 3 0");        // no value
  reader.line("A h 101 2 3 0 17");     // a histogram's line carries no value
  reader.line("C 3 101 101 1 2 2 3");  // a call line cut short
  reader.line("A z 101 2 3 0 5");      // no such aggregation
  reader.line("A h 101 2 3 0 ");
  reader.line("           value  ------------- Distribution ------------- count    ");
  reader.line("             256 |@@@@@@@@@                                 seven");
  reader.line("");
  const auto obs = reader.finish();
  EXPECT_EQ(obs.malformed, 8u);
  ASSERT_FALSE(obs.malformed_examples.empty());
  EXPECT_EQ(obs.malformed_examples[0], "A t 101 9 3 0 5");
}

TEST(DtraceReader, ASampleKeepsItsStackLeafFirstAsDtraceWroteIt) {
  DtraceReader reader;
  for (const char* line : {"X 101 102 5000 2 0 0", "", "              libc.so.6`cfree+0x37",
                           "              dash`0x55acc7264678", "              0x55acfe6cbac8",
                           "X 101 101 6000 2 1 1", "", "X 101 101 7000 9 0 0", "M 3 8000"}) {
    reader.line(line);
  }
  const auto obs = reader.finish();
  ASSERT_EQ(obs.samples.size(), 2u);
  EXPECT_EQ(obs.samples[0].tid, 102);
  EXPECT_EQ(obs.samples[0].phase, 2);
  EXPECT_FALSE(obs.samples[0].in_kernel);
  EXPECT_EQ(
      obs.samples[0].frames,
      (std::vector<std::string>{"libc.so.6`cfree+0x37", "dash`0x55acc7264678", "0x55acfe6cbac8"}));
  EXPECT_TRUE(obs.samples[1].frames.empty());  // a sample with no user stack
  EXPECT_TRUE(obs.samples[1].in_kernel);
  EXPECT_EQ(obs.samples[1].role, ThreadRole::bridge_writer);
  EXPECT_EQ(obs.malformed, 1u);       // phase 9
  ASSERT_EQ(obs.markers.size(), 1u);  // the line after a stack is read as its own
}

TEST(DtraceFrameRow, NamesItsModuleAndSymbolOrItsAddress) {
  const DtraceFrame named = parse_dtrace_frame("libc.so.6`cfree+0x37");
  EXPECT_EQ(named.module, "libc.so.6");
  EXPECT_EQ(named.symbol, "cfree");
  const DtraceFrame bare = parse_dtrace_frame("jbench-sqlite-worker`_ZN6jbench4waitEm");
  EXPECT_EQ(bare.symbol, "_ZN6jbench4waitEm");
  const DtraceFrame in_module = parse_dtrace_frame("dash`0x55acc7264678");
  EXPECT_EQ(in_module.module, "dash");
  EXPECT_TRUE(in_module.symbol.empty());
  EXPECT_EQ(in_module.address, 0x55acc7264678u);
  const DtraceFrame address = parse_dtrace_frame("0x55acfe6cbac8");
  EXPECT_TRUE(address.module.empty() && address.symbol.empty());
  EXPECT_EQ(address.address, 0x55acfe6cbac8u);
}

TEST(DtraceVersion, NamesTheDOfARealDtraceAndNothingElse) {
  EXPECT_EQ(host_caps::parse_dtrace_version("dtrace: Oracle D 2.0\n"), "Oracle D 2.0");
  EXPECT_EQ(host_caps::parse_dtrace_version("dtrace: Sun D 1.13.1\n"), "Sun D 1.13.1");
  EXPECT_EQ(host_caps::parse_dtrace_version(
                "/usr/bin/dtrace invalid option -V\nUsage /usr/bin/dtrace [--help] [-h | -G]"),
            std::nullopt);
  EXPECT_EQ(host_caps::parse_dtrace_version(""), std::nullopt);
}

TEST(DtraceFind, AnOverrideThatIsNotADtraceIsRefusedWithTheReason) {
  const auto missing = host_caps::find_dtrace("/usr/bin", std::string("/nonexistent/dtrace"));
  EXPECT_TRUE(missing.path.empty());
  EXPECT_TRUE(mentions(missing.reason, "JBENCH_DTRACE=/nonexistent/dtrace is not an executable"));
  EXPECT_TRUE(mentions(missing.remediation, "ci/dtrace-linux.sh"));
  const auto not_dtrace = host_caps::find_dtrace("/usr/bin", std::string("/bin/true"));
  EXPECT_TRUE(not_dtrace.path.empty());
  EXPECT_TRUE(mentions(not_dtrace.reason, "does not say it is a DTrace")) << not_dtrace.reason;
}

}  // namespace
}  // namespace jbench::collectors::syscall_detail
