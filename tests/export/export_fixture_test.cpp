// `jbench export` on hand-written bundles (tests/fixtures/export/): a run longer than an hour,
// whose nanoseconds a double of microseconds would lose, a span that never ended, a malformed
// raw line, a validator report that says invalid.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "export_support.h"
#include "temp_dir.h"

namespace jbench::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

TEST(ExportFixture, a_run_longer_than_an_hour_keeps_every_nanosecond) {
  const auto r = run_jbench({"export", export_fixture("long-run"), "--format", "chrome-json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["otherData"]["origin_ns"], "1000000000000");
  // The child's end, the root's end and a call, an hour and more after ts 0.
  EXPECT_NE(r.out.find(R"("ph":"E","pid":4242,"tid":4242,"ts":3600000000.123})"),
            std::string::npos);
  EXPECT_NE(r.out.find(R"("ph":"E","pid":4242,"tid":4242,"ts":3700000000.007})"),
            std::string::npos);
  EXPECT_NE(r.out.find(R"("tid":4242,"ts":3600000000.001,"dur":0.999,)"), std::string::npos);
  EXPECT_EQ(unpaired_slices(json::parse(r.out)), "");
}

TEST(ExportFixture, a_span_that_never_ended_is_closed_at_the_runs_last_timestamp_and_says_so) {
  const auto r = run_jbench({"export", export_fixture("long-run"), "--format", "chrome-json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The last timestamp is the fcntl's end: 3 700 000 000 900 + 1 ns.
  EXPECT_NE(
      r.out.find(
          R"("ph":"E","pid":4242,"tid":4242,"ts":3700000000.901,"args":{"end":"not ended in the bundle)"),
      std::string::npos)
      << r.out;
  EXPECT_EQ(json::parse(r.out)["otherData"]["runs"][0]["spans_not_ended"], 1);
}

TEST(ExportFixture, folded_self_time_is_duration_minus_children_in_integer_nanoseconds) {
  const auto r = run_jbench({"export", export_fixture("long-run"), "--format", "folded"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string thread = "w1.persistent.writer.tiny.full.r1;worker 0 pid 4242;tid 4242";
  const std::uint64_t root = 3'700'000'000'007 - 1000;
  const std::uint64_t child = 3'600'000'000'123 - 2001;
  EXPECT_EQ(r.out, thread + ";crashed 401\n" + thread + ";session " + std::to_string(root - child) +
                       "\n" + thread + ";session;transaction " + std::to_string(child) + "\n");
}

// The wake-up slices of a Chrome trace, in file order.
std::vector<json> wakeup_slices(const json& trace) {
  std::vector<json> out;
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] == "X" && e["cat"] == "wakeup") out.push_back(e);
  }
  return out;
}

// A task of the cohort that woke a thread in a call (worker 0's flock(LOCK_UN) releasing worker
// 1's flock(LOCK_EX)) or in a blocked wait (a thread of worker 0 with no record of its own ending
// worker 1's futex wait) is a flow at the wake-up's time from the waker's thread to the woken
// one, the waker's end first in the file. The harness, an interrupt, and a record without the
// wake-up's time (an earlier version's) draw nothing.
TEST(ExportFixture, a_wake_up_by_a_cohort_task_is_a_flow_from_the_wakers_thread_to_the_woken_one) {
  const auto r = run_jbench({"export", export_fixture("wakeups"), "--format", "chrome-json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json trace = json::parse(r.out);
  const auto slices = wakeup_slices(trace);
  ASSERT_EQ(slices.size(), 4u) << r.out;
  struct Flow {
    std::int64_t out_tid, in_tid;
    std::string ts;
  };
  const Flow want[] = {{4242, 4343, "103.000"}, {4244, 4343, "110.990"}};
  for (std::size_t i = 0; i < 2; ++i) {
    const json& out = slices[2 * i];
    const json& in = slices[2 * i + 1];
    EXPECT_EQ(out.value("flow_out", false), true) << out;
    EXPECT_EQ(in.value("flow_in", false), true) << in;
    EXPECT_EQ(out["bind_id"], in["bind_id"]);
    EXPECT_EQ(out["pid"], 4242);
    EXPECT_EQ(out["tid"], want[i].out_tid);
    EXPECT_EQ(in["pid"], 4343);
    EXPECT_EQ(in["tid"], want[i].in_tid);
    EXPECT_EQ(out["dur"], 0.0);
    EXPECT_EQ(in["dur"], 0.0);
    EXPECT_NE(r.out.find("\"tid\":" + std::to_string(want[i].out_tid) + ",\"ts\":" + want[i].ts +
                         ",\"dur\":0.000,\"cat\":\"wakeup\""),
              std::string::npos)
        << want[i].ts;
  }
  EXPECT_NE(slices[0]["bind_id"], slices[2]["bind_id"]);
  EXPECT_NE(r.out.find(R"("tid":4244,"ts":0.000,"name":"thread_name")"), std::string::npos)
      << "a thread seen only as a waker is named";
  EXPECT_EQ(unpaired_slices(trace), "");
}

// Under --max-events a wake-up weighs 2 (its two slices), is never cut in half, and is among
// what a cut names.
TEST(ExportFixture, a_cut_leaves_wake_ups_out_whole_and_counts_them) {
  // In time order: two boundaries (0, 1 us), the waiter's flock (100.1), the holder's release
  // (102.9): four events; the first wake-up (103.0) would make six, so it and everything after
  // it (the second wake-up among them) is left out.
  const auto r = run_jbench(
      {"export", export_fixture("wakeups"), "--format", "chrome-json", "--max-events", "5"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json trace = json::parse(r.out);
  EXPECT_TRUE(wakeup_slices(trace).empty()) << r.out;
  EXPECT_EQ(trace["otherData"]["cut"]["left_out_by_kind"]["wakeup"], 2) << r.out;
  EXPECT_EQ(trace["otherData"]["events_written"], 4);
}

TEST(ExportFixture, a_malformed_line_fails_with_2_naming_its_file_and_line_and_writes_nothing) {
  TempDir dir;
  const std::string out = dir.path() + "/t.json";
  const auto r = run_jbench(
      {"export", export_fixture("malformed-line"), "--format", "chrome-json", "--out", out});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("raw/bridge/worker-0.events.jsonl:4: "), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

// A file export takes ts 0 from run.json's earliest boundary in one pass (docs/export.md); a
// record earlier than that must not get a negative (or wrapped) ts: the export is redone in two
// passes, and ts 0 is that record.
TEST(ExportFixture, a_record_before_the_runs_first_boundary_is_ts_0_never_a_negative_one) {
  TempDir dir;
  const std::string copy = dir.path() + "/long-run";
  fs::copy(export_fixture("long-run"), copy, fs::copy_options::recursive);
  {
    const std::string raw =
        copy + "/runs/w1.persistent.writer.tiny.full.r1/raw/bridge/worker-0.events.jsonl";
    std::string text = slurp(raw);
    text.insert(text.find("{\"kind\":\"trailer\""),
                R"({"kind":"record","type":"phase","seq":"6","pid":4242,"start_time_ticks":"777",)"
                R"("tid":4242,"t_ns":"999999999000","name":"early"})"
                "\n");
    std::ofstream(raw) << text;
  }
  seal_bundle(copy);
  const std::string out = dir.path() + "/t.json";
  const auto r = run_jbench({"export", copy, "--format", "chrome-json", "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string text = slurp(out);
  EXPECT_EQ(json::parse(text)["otherData"]["origin_ns"], "999999999000");
  EXPECT_NE(text.find(R"("ts":0.000,"s":"p","cat":"phase","name":"early")"), std::string::npos);
  for (const std::string& t : time_texts(text)) {
    // The run's last time is 3 700 000 001.901 us after this ts 0; a wrapped one has 17 digits.
    EXPECT_LE(t.size(), std::string("3700000001.901").size()) << t;
    EXPECT_NE(t[0], '-') << t;
  }
}

// One worker's bridge entry may name its file as a string, not a list (docs/events.md); its
// spans are exported all the same.
TEST(ExportFixture, a_bridge_entry_naming_one_file_as_a_string_is_read) {
  TempDir dir;
  const std::string copy = dir.path() + "/long-run";
  fs::copy(export_fixture("long-run"), copy, fs::copy_options::recursive);
  const std::string run_json = copy + "/runs/w1.persistent.writer.tiny.full.r1/run.json";
  json run = json::parse(slurp(run_json));
  run["trace_mode"]["collectors"][0]["raw"] = "raw/bridge/worker-0.events.jsonl";
  std::ofstream(run_json) << run.dump();
  seal_bundle(copy);
  const auto r = run_jbench({"export", copy, "--format", "chrome-json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(R"("cat":"span","name":"transaction")"), std::string::npos) << r.out;
}

TEST(ExportFixture, a_bundle_its_validator_found_invalid_is_refused_with_1) {
  TempDir dir;
  const std::string copy = dir.path() + "/long-run";
  fs::copy(export_fixture("long-run"), copy, fs::copy_options::recursive);
  { std::ofstream(copy + "/validation.json") << R"({"valid": false, "finding_count": 2})"; }
  seal_bundle(copy);  // sums intact: the validator's verdict alone refuses it
  const auto r = run_jbench({"export", copy, "--format", "chrome-json"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("validation.json records 2 findings"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("SHA256SUMS"), std::string::npos) << r.err;
  EXPECT_EQ(run_jbench({"export", copy, "--format", "chrome-json", "--allow-invalid"}).exit_code,
            0);
}

TEST(ExportFixture, an_edited_bundle_is_refused_with_1_naming_the_file) {
  TempDir dir;
  const std::string copy = dir.path() + "/long-run";
  fs::copy(export_fixture("long-run"), copy, fs::copy_options::recursive);
  { std::ofstream(copy + "/manifest.json", std::ios::app) << " "; }
  const auto r = run_jbench({"export", copy, "--format", "chrome-json"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("SHA256SUMS: sums.mismatch manifest.json"), std::string::npos) << r.err;
}

TEST(ExportFixture, an_unreadable_bundle_is_bad_input) {
  const auto r = run_jbench({"export", "/nonexistent/bundle", "--format", "folded"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/nonexistent/bundle/manifest.json"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace jbench::test
