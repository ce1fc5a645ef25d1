// The pure readers of the backends' output, on checked-in fixture text: real output of bpftrace
// (light and full) and strace from runs of jbench-syscall-target, hand-written strace lines for
// interleaved threads, and lines that are malformed in every way the readers must catch.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <tuple>

#include "bpftrace_output.h"
#include "strace_output.h"
#include "summary.h"
#include "syscall_table.h"

namespace jbench::collectors::syscall_detail {
namespace {

std::vector<std::string> fixture_lines(const std::string& name) {
  std::ifstream in(std::string(JBENCH_SYSCALL_FIXTURES) + "/" + name);
  EXPECT_TRUE(in) << name;
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::size_t lines_matching(const std::vector<std::string>& lines, const std::string& pattern) {
  const std::regex re(pattern);
  std::size_t n = 0;
  for (const auto& l : lines) n += std::regex_search(l, re) ? 1 : 0;
  return n;
}

ProgramObservations read_bpftrace(const std::vector<std::string>& lines) {
  BpftraceReader reader;
  for (const auto& l : lines) reader.line(l);
  return reader.finish();
}

TEST(BpftraceReader, FullOutputGivesOneRecordPerCallLineWithPathsPaired) {
  const auto lines = fixture_lines("bpftrace_full.jsonl");
  const auto obs = read_bpftrace(lines);
  EXPECT_EQ(obs.malformed, 0u) << (obs.malformed_examples.empty() ? "" : obs.malformed_examples[0]);
  EXPECT_EQ(obs.lost, 0u);
  EXPECT_TRUE(obs.began);
  EXPECT_EQ(obs.calls.size(), lines_matching(lines, R"("data": "C )"));
  EXPECT_EQ(obs.canaries.size(), lines_matching(lines, R"("data": "K )"));
  EXPECT_EQ(obs.markers.size(), lines_matching(lines, R"("data": "M )"));
  EXPECT_EQ(obs.processes.size(), lines_matching(lines, R"("data": "P )"));
  EXPECT_EQ(obs.forks.size(), lines_matching(lines, R"("data": "F )"));
  ASSERT_FALSE(obs.calls.empty());
  for (const auto& c : obs.calls) {
    const TracedCall* call = call_by_id(c.call);
    ASSERT_NE(call, nullptr);
    EXPECT_TRUE(c.phase >= 0 && c.phase < kPhaseCount);
    ASSERT_TRUE(c.result.has_value());
    // Every open found its path line; fd calls carry the file identity the kernel read.
    if (call->kind == ArgKind::path) {
      EXPECT_FALSE(c.path.empty()) << call->name << " " << c.t_ns;
    } else {
      EXPECT_TRUE(c.file.has_value()) << call->name;
    }
    EXPECT_EQ(c.request.has_value(), call->kind == ArgKind::fd_request);
    if (call->name == "ioctl" && request_name(*call, *c.request) == "TCGETS") {
      EXPECT_EQ(*c.result, -25);  // ENOTTY: the target's file is not a terminal
    }
  }
  for (const auto& k : obs.canaries) EXPECT_TRUE(k.path.starts_with(kCanaryPrefix));
}

TEST(BpftraceReader, LightMapsBecomeConsistentTotals) {
  const auto lines = fixture_lines("bpftrace_light.jsonl");
  const auto obs = read_bpftrace(lines);
  EXPECT_EQ(obs.malformed, 0u) << (obs.malformed_examples.empty() ? "" : obs.malformed_examples[0]);
  EXPECT_TRUE(obs.calls.empty());
  ASSERT_FALSE(obs.totals.empty());
  for (const auto& [key, t] : obs.totals) {
    std::uint64_t in_buckets = 0;
    for (const auto& [lower, n] : t.log2_buckets) {
      in_buckets += n;
      EXPECT_EQ(lower, log2_bucket(lower)) << "a bucket bound is a power of two";
    }
    EXPECT_EQ(in_buckets, t.count) << key.pid << "/" << key.phase << "/" << key.call;
    EXPECT_LE(t.errors, t.count);
    EXPECT_LE(t.max_ns, t.total_ns);
    if (call_by_id(key.call)->kind == ArgKind::fd_request) {
      std::uint64_t requests = 0;
      for (const auto& [code, n] : t.requests) requests += n;
      EXPECT_EQ(requests, t.count);
    }
  }
}

TEST(BpftraceReader, LiveScanSeesWhatTheFullReadSees) {
  const auto lines = fixture_lines("bpftrace_full.jsonl");
  std::size_t markers = 0, canaries = 0, processes = 0;
  for (const auto& l : lines) {
    const LiveLine live = scan_bpftrace_line(l);
    markers += live.kind == LiveLine::Kind::marker;
    canaries += live.kind == LiveLine::Kind::canary;
    processes += live.kind == LiveLine::Kind::process;
  }
  const auto obs = read_bpftrace(lines);
  EXPECT_EQ(markers, obs.markers.size());
  EXPECT_EQ(canaries, obs.canaries.size());
  EXPECT_EQ(processes, obs.processes.size());
  const LiveLine lost = scan_bpftrace_line(R"({"type": "lost_events", "data": {"events": 1534}})");
  EXPECT_EQ(lost.kind, LiveLine::Kind::lost);
  EXPECT_EQ(lost.lost, 1534u);
}

TEST(BpftraceReader, LostEventsAreSummed) {
  const auto obs = read_bpftrace({R"({"type": "lost_events", "data": {"events": 1534}})",
                                  R"({"type": "lost_events", "data": {"events": 676}})"});
  EXPECT_EQ(obs.lost, 1534u + 676u);
  EXPECT_EQ(obs.malformed, 0u);
}

TEST(BpftraceReader, EveryMalformedLineIsCountedAndQuoted) {
  const auto lines = fixture_lines("bpftrace_malformed.jsonl");
  const auto obs = read_bpftrace(lines);
  EXPECT_EQ(obs.malformed, lines.size());
  EXPECT_TRUE(obs.calls.empty());
  EXPECT_TRUE(obs.canaries.empty());
  EXPECT_TRUE(obs.markers.empty());
  ASSERT_FALSE(obs.malformed_examples.empty());
  EXPECT_EQ(obs.malformed_examples.front(), lines.front());
}

TEST(StraceReader, RealOutputGivesOneRecordPerTracedCall) {
  const auto lines = fixture_lines("strace.txt");
  StraceReader reader(0);
  for (const auto& l : lines) reader.line(l);
  const auto obs = reader.finish();
  EXPECT_EQ(obs.malformed, 0u) << (obs.malformed_examples.empty() ? "" : obs.malformed_examples[0]);
  EXPECT_EQ(obs.calls.size(), lines_matching(lines, R"( = )") - lines_matching(lines, "faccessat"));
  EXPECT_EQ(obs.canaries.size(), lines_matching(lines, "/jbench-canary/"));
  EXPECT_EQ(obs.ignored, lines_matching(lines, R"(\+\+\+ )"));
  for (const auto& c : obs.calls) {
    const TracedCall* call = call_by_id(c.call);
    ASSERT_NE(call, nullptr);
    EXPECT_FALSE(c.path.empty()) << call->name << ": strace -y names every descriptor's file";
    EXPECT_FALSE(c.file.has_value());
    if (call->kind == ArgKind::path && *c.result >= 0) {
      EXPECT_TRUE(c.result_path.has_value());
    }
  }
}

TEST(StraceReader, InterleavedThreadsArePairedAndPartialCallsSetAside) {
  StraceReader reader(1'699'999'000'000'000'000);
  for (const auto& l : fixture_lines("strace_interleaved.txt")) reader.line(l);
  const auto obs = reader.finish();
  EXPECT_EQ(obs.malformed, 0u) << (obs.malformed_examples.empty() ? "" : obs.malformed_examples[0]);
  // A resumed half with no first half (attach), one never resumed (thread ended), one whose
  // process was killed inside it (= ?), one strace detached from: none counts as a call.
  EXPECT_EQ(obs.in_progress, 4u);
  EXPECT_EQ(obs.ignored, 2u);
  ASSERT_EQ(obs.canaries.size(), 1u);
  EXPECT_EQ(obs.canaries[0].tid, 500);
  ASSERT_EQ(obs.calls.size(), 7u);
  const auto& read = obs.calls[0];
  EXPECT_EQ(call_by_id(read.call)->name, "read");
  EXPECT_EQ(read.t_ns, 1'000'000'100'000u);  // the entry's time, converted by the offset
  EXPECT_EQ(read.duration_ns, 100'000u);
  EXPECT_EQ(read.result, 5);
  EXPECT_EQ(read.path, "/data/a.db");
  const auto& pwrite = obs.calls[1];
  EXPECT_EQ(pwrite.tid, 501);
  EXPECT_EQ(pwrite.fd, 4);
  EXPECT_EQ(pwrite.result, 4096);
  const auto& missing = obs.calls[2];
  EXPECT_EQ(missing.result, -2);
  EXPECT_EQ(missing.path, "/data/with \"quote\" and \\.db");
  EXPECT_EQ(obs.calls[3].result, 1);  // fcntl's hex result
  EXPECT_EQ(request_name(*call_by_id(obs.calls[3].call), *obs.calls[3].request), "F_GETFD");
  EXPECT_EQ(request_name(*call_by_id(obs.calls[4].call), *obs.calls[4].request), "TCGETS");
  EXPECT_EQ(obs.calls[4].result, -25);
  EXPECT_EQ(request_name(*call_by_id(obs.calls[5].call), *obs.calls[5].request), "LOCK_EX|LOCK_NB");
  EXPECT_EQ(obs.calls[6].result_path, "/data/b.db");
}

// strace 6.1's own lines (-X raw): a fork (clone without CLONE_THREAD), a thread (clone3 with
// it), a vfork, one clone cut in two by another thread's line, and a failed one.
TEST(StraceReader, CreationsNameEachChildAndWhetherItIsAThread) {
  StraceReader reader(1'796'290'000'000'000'000);
  const std::vector<std::string> lines = {
      "1582  1796290689.353263737 clone(child_stack=NULL, flags=0x1200000|17, "
      "child_tidptr=0x7f3932e91a10) = 1583 <0.000138341>",
      "1582  1796290689.355339501 clone3({flags=0x3d0f00, child_tid=0x7f3932e90990, "
      "parent_tid=0x7f3932e90990, exit_signal=0, stack=0x7f3932690000, stack_size=0x7fff80, "
      "tls=0x7f3932e906c0} => {parent_tid=[1584]}, 88) = 1584 <0.000098061>",
      "1582  1796290689.356516168 vfork()      = 1585 <0.000292373>",
      "1584  1796290689.357000000 clone(child_stack=0x7f00, flags=0x3d0f00 <unfinished ...>",
      "1582  1796290689.357100000 +++ exited with 0 +++",
      "1584  1796290689.357200000 <... clone resumed>, parent_tid=[1586]) = 1586 <0.000200000>",
      "1584  1796290689.357300000 clone(child_stack=NULL, flags=0x1200000|17) = -1 EAGAIN "
      "(Resource temporarily unavailable) <0.000010000>"};
  for (const auto& l : lines) reader.line(l);
  const auto obs = reader.finish();
  EXPECT_EQ(obs.malformed, 0u) << (obs.malformed_examples.empty() ? "" : obs.malformed_examples[0]);
  EXPECT_TRUE(obs.calls.empty()) << "creations are never counted as calls";
  ASSERT_EQ(obs.creations.size(), 4u);
  const std::vector<std::tuple<pid_t, pid_t, bool>> want = {
      {1582, 1583, false}, {1582, 1584, true}, {1582, 1585, false}, {1584, 1586, true}};
  for (std::size_t i = 0; i < want.size(); ++i) {
    const auto& made = obs.creations[i];
    EXPECT_EQ(std::make_tuple(made.creator_tid, made.child_tid, made.thread), want[i]) << i;
  }
  EXPECT_EQ(obs.creations[0].t_ns, 689'353'263'737u);  // the call's entry, converted
  EXPECT_EQ(obs.creations[3].t_ns, 689'357'000'000u);  // the first half's time
}

TEST(StraceReader, EveryMalformedLineIsCounted) {
  const auto lines = fixture_lines("strace_malformed.txt");
  StraceReader reader(0);
  for (const auto& l : lines) reader.line(l);
  const auto obs = reader.finish();
  EXPECT_EQ(obs.malformed, lines.size());
  EXPECT_TRUE(obs.calls.empty());
}

TEST(StraceUnquote, HandlesEscapesAndCutStrings) {
  std::size_t end = 0;
  bool cut = false;
  EXPECT_EQ(strace_unquote(R"("a\"b\\c\n\x41\101", 3)", end, cut), "a\"b\\c\nAA");
  EXPECT_FALSE(cut);
  EXPECT_EQ(end, std::string(R"("a\"b\\c\n\x41\101")").size());
  EXPECT_EQ(strace_unquote(R"("abc"..., 3)", end, cut), "abc");
  EXPECT_TRUE(cut);
  EXPECT_FALSE(strace_unquote(R"("unterminated)", end, cut).has_value());
  EXPECT_FALSE(strace_unquote("noquote", end, cut).has_value());
}

TEST(SyscallTable, IdsAreIndexesAndNamesAreUnique) {
  std::set<std::string_view> names;
  int index = 0;
  for (const auto& c : traced_calls()) {
    EXPECT_EQ(c.id, index++);
    EXPECT_TRUE(names.insert(c.name).second) << c.name;
    EXPECT_EQ(find_call(c.name), &c);
  }
  EXPECT_EQ(find_call("faccessat"), nullptr) << "the canary is recognised, never counted";
}

TEST(SyscallTable, RequestsAreNamedFromABoundedTableAndUnknownOnesInHex) {
  const TracedCall& ioctl = *find_call("ioctl");
  EXPECT_EQ(request_name(ioctl, 0x5401), "TCGETS");
  EXPECT_EQ(request_name(ioctl, 0x5413), "TIOCGWINSZ");
  EXPECT_EQ(request_name(ioctl, 0x541B), "FIONREAD");
  EXPECT_EQ(request_name(ioctl, 0x5421), "FIONBIO");
  EXPECT_EQ(request_name(ioctl, 0x5451), "FIOCLEX");
  EXPECT_EQ(request_name(ioctl, 0xdead), "0xdead");
  EXPECT_EQ(request_name(ioctl, 0xffffffff80045430ULL), "TIOCGPTN") << "sign-extended request";
  EXPECT_EQ(request_name(*find_call("fcntl"), 6), "F_SETLK");
  EXPECT_EQ(request_name(*find_call("fcntl"), 4242), "F_4242");
  EXPECT_EQ(request_name(*find_call("flock"), 8), "LOCK_UN");
  EXPECT_EQ(request_name(*find_call("flock"), 0x20), "0x20");
  EXPECT_EQ(errno_name(2), "ENOENT");
  EXPECT_EQ(errno_from_name("ENOTTY"), 25);
  EXPECT_FALSE(errno_from_name("EWHAT").has_value());
}

}  // namespace
}  // namespace jbench::collectors::syscall_detail
