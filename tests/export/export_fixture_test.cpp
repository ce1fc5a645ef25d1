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
