// From observations to the raw file and the summary: records ordered per stream and accepted by
// jbench's event checker, descriptors resolved only when the file identity matches, forked
// children attributed to their own incarnation with their parent's descriptors, calls of unknown
// processes refused, the output bound marked by an overflow record, light totals as records.
#include "report.h"

#include <gtest/gtest.h>

#include <fstream>

#include "jbench/events/event_file.h"
#include "raw_lines.h"
#include "syscall_table.h"
#include "temp_dir.h"

namespace jbench::collectors::syscall_detail {
namespace {

using Json = nlohmann::json;

CallRecord call(pid_t pid, pid_t tid, std::uint64_t t, const char* name, std::int64_t fd,
                std::int64_t result, std::uint64_t inode, int phase = 0) {
  CallRecord c;
  c.pid = pid;
  c.tid = tid;
  c.t_ns = t;
  c.duration_ns = 10 + t;
  c.call = find_call(name)->id;
  c.phase = phase;
  c.fd = fd;
  c.result = result;
  c.file = FileIdentity{8, 1, inode};
  return c;
}

struct Fixture {
  test::TempDir dir;
  std::vector<CohortProcess> registered = {{0, 100, 5000}};
  std::vector<CohortProcess> added;
  std::map<pid_t, FdSnapshot> snapshots;
  ReportInput input(std::uint64_t max_bytes = 1 << 20) {
    ReportInput in;
    in.events_path = dir.path() + "/syscall.events.jsonl.zst";
    in.max_output_bytes = max_bytes;
    in.header = {{"schema", "jbench.events"},
                 {"schema_version", 1},
                 {"collector", "syscall"},
                 {"backend", "test"},
                 {"clock", "CLOCK_MONOTONIC"},
                 {"units", {{"t_ns", "ns"}}},
                 {"run_id", "r1"},
                 {"boot_id", "b1"}};
    in.ended = {{"how", "exit"}, {"code", 0}};
    in.started_ns = 10;
    in.marks = {{0, 10}, {2, 45}};
    in.registered = &registered;
    in.added = &added;
    in.snapshots = &snapshots;
    return in;
  }
  EventFileReport check(const ReportInput& in) const {
    return check_event_file(in.events_path, {"r1", "b1", {{100, 5000}, {300, 6000}}});
  }
};

Observed per_call_observations() {
  Observed obs;
  obs.per_call = true;
  // Out of entry order, as per-CPU buffers deliver them.
  obs.calls = {call(100, 101, 30, "read", 3, 5, 77),       // another thread, same process
               call(100, 100, 20, "openat", -100, 3, 77),  // names fd 3
               call(100, 100, 50, "read", 3, 5, 99, 2),    // fd 3 is another file by now
               call(100, 100, 40, "read", 3, 5, 77),
               call(300, 300, 60, "write", 3, 5, 77, 2),   // the fork, its parent's fd 3
               call(999, 999, 70, "write", 1, 5, 12, 2)};  // nobody the run knows
  obs.calls[1].path = "/d/a";
  obs.processes = {{300, 6000, 100, 55, true}};
  return obs;
}

const Json& cell(const Json& summary, pid_t pid, const char* phase, const char* name) {
  for (const auto& inc : summary["incarnations"]) {
    if (inc["pid"] == pid) return inc["phases"][phase][name];
  }
  static const Json none;
  return none;
}

// The trace bridge's writer thread is the observer's: where the backend tells it apart, its calls
// are summarised beside the workload's, in calls and in totals alike; elsewhere all are one.
TEST(SyscallReport, TheBridgeWritersCallsAreSummarisedApartFromTheWorkloads) {
  for (const bool per_call : {true, false}) {
    Fixture f;
    Observed obs;
    obs.per_call = per_call;
    obs.thread_roles = true;
    if (per_call) {
      obs.calls = {call(100, 100, 20, "write", 3, 5, 77, 2),
                   call(100, 102, 30, "write", 4, 9, 78, 2),
                   call(100, 102, 40, "write", 4, 9, 78, 2)};
      obs.calls[1].role = ThreadRole::bridge_writer;
      obs.calls[2].role = ThreadRole::bridge_writer;
    } else {
      Totals one, two;
      one.count = 1;
      two.count = 2;
      obs.totals[{100, 2, find_call("write")->id, ThreadRole::workload}] = one;
      obs.totals[{100, 2, find_call("write")->id, ThreadRole::bridge_writer}] = two;
    }
    const ReportOutput out = write_report(f.input(), obs);
    EXPECT_EQ(out.summary["thread_roles"], "told_apart");
    EXPECT_EQ(cell(out.summary, 100, "measure", "write")["count"], 1) << out.summary.dump();
    const Json& inc = out.summary["incarnations"][0];
    EXPECT_EQ(inc["bridge_writer_phases"]["measure"]["write"]["count"], 2) << inc.dump();
    EXPECT_EQ(out.calls, 3u);
  }
  Fixture f;
  Observed mixed = per_call_observations();
  const ReportOutput out = write_report(f.input(), mixed);
  EXPECT_EQ(out.summary["thread_roles"], "mixed");
  EXPECT_FALSE(out.summary["incarnations"][0].contains("bridge_writer_phases"));
}

TEST(SyscallReport, PerCallRecordsPassTheEventChecker) {
  Fixture f;
  auto obs = per_call_observations();
  const auto in = f.input();
  const ReportOutput out = write_report(in, obs);
  EXPECT_TRUE(out.write_error.empty()) << out.write_error;
  EXPECT_EQ(out.records, 5u);
  const auto report = f.check(in);
  for (const auto& p : report.problems) ADD_FAILURE() << p.code << ": " << p.message;
  EXPECT_EQ(report.records, 5u);
}

// A file name is any bytes: one that is not UTF-8 reaches the raw file and the summary with
// U+FFFD in place of each bad byte, never as an exception that would take the run with it.
TEST(SyscallReport, APathThatIsNotUtf8IsWrittenWithReplacementCharacters) {
  Fixture f;
  auto obs = per_call_observations();
  obs.calls[1].path = "/d/\xff\xfename";
  const auto in = f.input();
  ReportOutput out;
  ASSERT_NO_THROW(out = write_report(in, obs));
  EXPECT_TRUE(out.write_error.empty()) << out.write_error;
  const auto report = f.check(in);
  for (const auto& p : report.problems) ADD_FAILURE() << p.code << ": " << p.message;
  // Each byte that begins no UTF-8 sequence reads back as U+REPLACEMENT CHARACTER, in the open's
  // record and in those of the calls on the descriptor it returned; the raw bytes nowhere.
  int found = 0;
  for (const auto& line : test::raw_lines(in.events_path)) {
    EXPECT_EQ(line.find('\xff'), std::string::npos) << line;
    const auto record = nlohmann::json::parse(line);
    found += record.value("path", nlohmann::json()) == "/d/\xEF\xBF\xBD\xEF\xBF\xBDname";
  }
  EXPECT_GE(found, 1);
  EXPECT_NO_THROW((void)out.summary.dump());
}

TEST(SyscallReport, CallsOfUnknownProcessesAreRefusedAndSaid) {
  Fixture f;
  auto obs = per_call_observations();
  const ReportOutput out = write_report(f.input(), obs);
  ASSERT_EQ(out.problems.size(), 1u);
  EXPECT_NE(out.problems[0].find("1 call(s) of pid 999"), std::string::npos) << out.problems[0];
}

TEST(SyscallReport, DescriptorsGetAPathOnlyWhenTheFileIdentityMatches) {
  Fixture f;
  auto obs = per_call_observations();
  const ReportOutput out = write_report(f.input(), obs);
  const Json& startup_reads = cell(out.summary, 100, "startup", "read");
  ASSERT_EQ(startup_reads["files"].size(), 1u) << startup_reads.dump();
  EXPECT_EQ(startup_reads["files"][0]["path"], "/d/a");
  EXPECT_EQ(startup_reads["files"][0]["count"], 2);
  EXPECT_EQ(startup_reads["files"][0]["file"], "8:1:77");
  const Json& later = cell(out.summary, 100, "measure", "read");
  ASSERT_EQ(later["files"].size(), 1u);
  EXPECT_TRUE(later["files"][0]["path"].is_null()) << "fd 3 was reused for an untraced file";
  EXPECT_EQ(later["files"][0]["file"], "8:1:99");
}

TEST(SyscallReport, AForkIsItsOwnIncarnationWithItsParentsDescriptors) {
  Fixture f;
  auto obs = per_call_observations();
  const ReportOutput out = write_report(f.input(), obs);
  const Json& write = cell(out.summary, 300, "measure", "write");
  ASSERT_EQ(write["count"], 1) << out.summary.dump();
  EXPECT_EQ(write["files"][0]["path"], "/d/a");
  bool listed = false;
  for (const auto& inc : out.summary["incarnations"]) {
    if (inc["pid"] != 300) continue;
    listed = true;
    EXPECT_EQ(inc["origin"], "forked");
    EXPECT_EQ(inc["parent"], 100);
    EXPECT_EQ(inc["start_time_ticks"], "6000");
  }
  EXPECT_TRUE(listed);
}

TEST(SyscallReport, SnapshotNamesDescriptorsOpenedBeforeTracing) {
  Fixture f;
  f.snapshots[100] = {{7, FdEntry{"/var/lib/x.db", FileIdentity{8, 1, 55}}}};
  Observed obs;
  obs.per_call = true;
  obs.calls = {call(100, 100, 20, "pread64", 7, 4096, 55)};
  const ReportOutput out = write_report(f.input(), obs);
  EXPECT_EQ(cell(out.summary, 100, "startup", "pread64")["files"][0]["path"], "/var/lib/x.db");
}

TEST(SyscallReport, TheOutputBoundIsMarkedByAnOverflowRecordAndDrops) {
  Fixture f;
  auto obs = per_call_observations();
  const auto in = f.input(/*max_bytes=*/900);
  const ReportOutput out = write_report(in, obs);
  EXPECT_TRUE(out.over_bound);
  EXPECT_GT(out.refused, 0u);
  const auto report = f.check(in);
  std::set<std::string> codes;
  for (const auto& p : report.problems) codes.insert(p.code);
  EXPECT_TRUE(codes.count("events.overflow")) << "the reader learns where the bound was hit";
  EXPECT_TRUE(codes.count("events.dropped"));
  EXPECT_FALSE(codes.count("events.gap")) << "the overflow record keeps its stream gap-free";
  ASSERT_TRUE(report.trailer.has_value());
  EXPECT_EQ((*report.trailer)["dropped"], out.refused);
}

TEST(SyscallReport, LightTotalsBecomeRecordsAtTheirPhasesStart) {
  Fixture f;
  Observed obs;
  Totals t;
  t.count = 3;
  t.errors = 1;
  t.total_ns = 300;
  t.max_ns = 200;
  t.log2_buckets = {{64, 2}, {128, 1}};
  t.requests = {{0x5401, 3}};
  t.request_errors = {{0x5401, 1}};
  obs.totals[{100, 2, find_call("ioctl")->id}] = t;
  obs.totals[{100, 0, find_call("ioctl")->id}] = t;
  const auto in = f.input();
  const ReportOutput out = write_report(in, obs);
  EXPECT_EQ(out.records, 2u);
  EXPECT_EQ(out.calls, 6u);
  const auto report = f.check(in);
  for (const auto& p : report.problems) ADD_FAILURE() << p.code << ": " << p.message;
  EXPECT_EQ(report.unknown_types, 2u) << "syscall_totals is this collector's own record type";
  const Json& measure = cell(out.summary, 100, "measure", "ioctl");
  EXPECT_EQ(measure["count"], 3);
  EXPECT_EQ(measure["requests"]["TCGETS"], Json({{"count", 3}, {"errors", 1}}));
  std::vector<std::string> times;
  for (const auto& line : test::raw_lines(in.events_path)) {
    const Json j = Json::parse(line);
    if (j["kind"] == "record") times.push_back(j["t_ns"]);
  }
  EXPECT_EQ(times, (std::vector<std::string>{"10", "45"}));
}

}  // namespace
}  // namespace jbench::collectors::syscall_detail
