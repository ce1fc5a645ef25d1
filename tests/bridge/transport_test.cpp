// The transport (docs/bridge.md, "Transport"): per-thread rings drained by a background writer.
// A run many times longer than a ring loses nothing when the writer keeps up — in the process
// that made the file and in a forked child; a full ring drops without blocking, and the file
// accounts for every event; threads that come and go are all recorded.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "bridge_test_support.h"
#include "run_process.h"
#include "temp_dir.h"

namespace jbench {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

// A long paced run: 100000 spans (200002 events) through the default ring of 16384 slots, with
// a 2 ms pause every 200 spans, so the writer has about 40 ms to answer a half-full ring.
constexpr std::uint64_t kPacedSpans = 100000;
constexpr const char* kBatch = "200";
constexpr const char* kPauseUs = "2000";

struct Outcome {
  test::ProcessResult run;
  std::vector<json> lines;
  EventFileReport report;
};

Outcome run_target(const std::string& program, std::vector<std::string> args,
                   const std::string& buffer = "") {
  test::TempDir dir;
  const std::string out = dir.path() + "/transport.events.jsonl";
  test::ProcessOptions o;
  o.timeout = 90s;
  o.env = test::bridge_env("full", out, buffer);
  args.insert(args.begin(), program);
  Outcome r{test::run_process(args, o), {}, {}};
  if (r.run.exit_code == 0) {
    r.lines = test::read_lines(out);
    r.report = check_event_file(out, test::context_of(r.lines));
  }
  return r;
}

std::uint64_t count_type(const std::vector<json>& lines, const std::string& type) {
  std::uint64_t n = 0;
  for (const json& l : lines) n += l.value("type", "") == type;
  return n;
}

// Streams (pid, tid) that wrote records.
std::set<std::tuple<std::int64_t, std::int64_t>> streams(const std::vector<json>& lines) {
  std::set<std::tuple<std::int64_t, std::int64_t>> out;
  for (const json& l : lines) {
    if (l.value("kind", "") == "record") out.emplace(l["pid"], l["tid"]);
  }
  return out;
}

class Transport : public ::testing::TestWithParam<std::string> {};

TEST_P(Transport, ARunManyRingsLongLosesNothingWhenTheWriterKeepsUp) {
  const auto r = run_target(GetParam(), {"paced", std::to_string(kPacedSpans), kBatch, kPauseUs});
  ASSERT_EQ(r.run.exit_code, 0) << r.run.err;
  EXPECT_TRUE(r.report.ok()) << test::codes(r.report);
  EXPECT_EQ(r.report.spans, kPacedSpans + 1);
  ASSERT_TRUE(r.report.trailer);
  EXPECT_EQ((*r.report.trailer)["dropped"], 0);
  EXPECT_EQ(count_type(r.lines, "overflow"), 0u);
}

TEST_P(Transport, AForkedChildDrainsWithItsOwnWriter) {
  const auto r =
      run_target(GetParam(), {"paced", std::to_string(kPacedSpans), kBatch, kPauseUs, "--fork"});
  ASSERT_EQ(r.run.exit_code, 0) << r.run.err;
  EXPECT_TRUE(r.report.ok()) << test::codes(r.report);
  EXPECT_EQ(r.report.spans, kPacedSpans + 1);
  ASSERT_TRUE(r.report.trailer);
  EXPECT_EQ((*r.report.trailer)["dropped"], 0);  // the owner's trailer counts the child's too

  const auto kv = test::parse_output(r.run.out);
  const json* root = test::span_named(r.lines, "root");
  ASSERT_TRUE(root);
  std::uint64_t in_child = 0;
  for (const json& l : r.lines) {
    if (l.value("type", "") != "span_begin" || l.value("name", "") != "paced") continue;
    in_child += l["pid"] == std::stoll(kv.at("child_pid"));
    EXPECT_EQ(l["parent_id"], (*root)["span_id"]);  // across the process hop
  }
  EXPECT_EQ(in_child, kPacedSpans);
}

TEST_P(Transport, AFullRingDropsAndTheFileAccountsForEveryEvent) {
  // No pauses and a 64-slot ring: the program runs flat out and never waits for the writer.
  const auto r = run_target(GetParam(), {"paced", std::to_string(kPacedSpans), "0", "0"}, "64");
  ASSERT_EQ(r.run.exit_code, 0) << r.run.err;
  ASSERT_TRUE(r.report.trailer);
  const auto dropped = (*r.report.trailer)["dropped"].get<std::uint64_t>();
  EXPECT_GT(dropped, 0u);
  std::uint64_t marked = 0;
  for (const json& l : r.lines) {
    if (l.value("type", "") == "overflow") marked += std::stoull(l["dropped"].get<std::string>());
  }
  // Every event is either a record or counted by an overflow record where it was lost.
  EXPECT_EQ(marked, dropped);
  EXPECT_EQ(r.report.records - count_type(r.lines, "overflow") + dropped, 2 * kPacedSpans + 2);
  for (const auto& p : r.report.problems) {
    // Losing begins or ends leaves spans half-recorded; past 50 of them the checker stops
    // listing (how many are lost depends on how fast the writer drained: the load of the host).
    EXPECT_TRUE(p.code == "events.overflow" || p.code == "events.dropped" ||
                p.code == "events.unpaired" || p.code == "events.orphan_span" ||
                p.code == "events.too_many_problems")
        << p.code << ": " << p.message;
  }
}

TEST_P(Transport, ThreadsThatComeAndGoAreAllRecorded) {
  constexpr int kThreads = 40;
  constexpr std::uint64_t kSpansEach = 500;
  const auto r =
      run_target(GetParam(), {"threads", std::to_string(kThreads), std::to_string(kSpansEach)});
  ASSERT_EQ(r.run.exit_code, 0) << r.run.err;
  EXPECT_TRUE(r.report.ok()) << test::codes(r.report);
  EXPECT_EQ(r.report.spans, kThreads * kSpansEach + 1);
  EXPECT_EQ(streams(r.lines).size(), kThreads + 1u);  // each thread, and main
  const json* root = test::span_named(r.lines, "root");
  ASSERT_TRUE(root);
  for (const json& l : r.lines) {
    if (l.value("name", "") == "paced") {
      EXPECT_EQ(l["parent_id"], (*root)["span_id"]);
    }
  }
}

// An FFI loads the library with dlopen(): its thread-local state must fit the static TLS space
// such a library may use, and every thread records.
TEST(TransportDlopen, ALibraryLoadedAtRunTimeRecordsFromEveryThread) {
  test::TempDir dir;
  const std::string out = dir.path() + "/dlopen.events.jsonl";
  test::ProcessOptions o;
  o.timeout = 60s;
  o.env = test::bridge_env("full", out);
  const auto r = test::run_process({DLOPEN_TARGET, JBENCH_BRIDGE_SO, "1000"}, o);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = test::read_lines(out);
  const EventFileReport report = check_event_file(out, test::context_of(lines));
  EXPECT_TRUE(report.ok()) << test::codes(report);
  EXPECT_EQ(report.spans, std::stoull(test::parse_output(r.out).at("spans")));
  EXPECT_EQ(streams(lines).size(), 3u);
}

// On the POSIX seam (the systems DTrace lives on) the bridge cannot name its incarnation by the
// Linux start time the events format asks for: it refuses to start, saying so, and writes nothing.
TEST(TransportDlopen, ThePosixSeamsBridgeRefusesToStartWithoutAStartTime) {
  test::TempDir dir;
  const std::string out = dir.path() + "/posix.events.jsonl";
  test::ProcessOptions o;
  o.timeout = 60s;
  o.env = test::bridge_env("full", out);
  const auto r = test::run_process({DLOPEN_TARGET, JBENCH_BRIDGE_POSIX_SO, "10"}, o);
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("cannot read this process's start time"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

// The kernel gives thread ids out again once its pid counter wraps. A stream is named by (pid,
// start time, tid), so a thread that gets the id of one that exited continues that stream: its
// seq goes on where the other's stopped.
TEST(TransportThreadIds, AThreadIdThatComesBackContinuesItsStream) {
  std::ifstream in("/proc/sys/kernel/pid_max");
  long pid_max = 0;
  if (!(in >> pid_max)) GTEST_SKIP() << "/proc/sys/kernel/pid_max is unreadable";
  if (pid_max > 65536) {
    GTEST_SKIP() << "pid_max is " << pid_max
                 << ": a thread id comes back only after that many threads, too many for a test";
  }
  // More threads, one after another, than there are ids: some id must come back.
  const long threads = pid_max + 2000;
  const auto r = run_target(PROBE_TARGET_SHARED, {"threads", std::to_string(threads), "1"});
  ASSERT_EQ(r.run.exit_code, 0) << r.run.err;
  EXPECT_TRUE(r.report.ok()) << test::codes(r.report);
  EXPECT_EQ(r.report.spans, static_cast<std::uint64_t>(threads) + 1);
  EXPECT_LT(streams(r.lines).size(), static_cast<std::size_t>(threads) + 1);  // ids came back
}

INSTANTIATE_TEST_SUITE_P(Linkage, Transport,
                         ::testing::Values(PROBE_TARGET_SHARED, PROBE_TARGET_STATIC),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           return std::string(param.index == 0 ? "Shared" : "Static");
                         });

}  // namespace
}  // namespace jbench
