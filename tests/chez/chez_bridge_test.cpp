// A real garbage-collected runtime delivering attributable GC events through the trace bridge
// (docs/chez-worker.md, "Tracing"): the Chez worker's raw file, checked by jbench's own events
// checker against the worker registered as the harness registers it, holds the canary, the
// phases, one span per batch and one gc_begin/gc_end pair per collection the worker counted.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "chez_worker.h"
#include "jbench/events/event_file.h"
#include "jbench/proc/child_process.h"
#include "jbench/proc/proc_stat.h"

namespace jbench::test {
namespace {

constexpr const char* kRunId = "w1.persistent.mixed.small.full.r1";

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

std::string problems(const EventFileReport& r) {
  std::string s;
  for (const auto& p : r.problems)
    s += p.code + " (line " + std::to_string(p.line) + "): " + p.message + "\n";
  return s;
}

// The records of the file in stream order (one stream: the worker's only recording thread).
std::vector<json> records_of(const std::string& path) {
  std::vector<json> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    json j = json::parse(line);
    if (j.value("kind", "") == "record") out.push_back(std::move(j));
  }
  std::stable_sort(out.begin(), out.end(), [](const json& a, const json& b) {
    return std::make_pair(a.at("tid").get<std::int64_t>(), ns(a.at("seq"))) <
           std::make_pair(b.at("tid").get<std::int64_t>(), ns(b.at("seq")));
  });
  return out;
}

std::uint64_t bytes_of(const json& record) {
  const json& b = record.at("bytes");
  return b.is_string() ? ns(b) : b.get<std::uint64_t>();
}

ChezOptions traced_options() {
  ChezOptions o;
  o.lane = "mixed";
  o.read_ratio = 0.5;
  o.tree_nodes = 500;
  o.collect_trip_kib = 128;
  o.alloc_sample_every = 10;
  o.warmup = {{"operations", 200}};
  o.measure = {{"operations", 1200}};
  return o;
}

class ChezBridge : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { data_ = new ChezDataset(2000, 32, 17); }
  static void TearDownTestSuite() {
    delete data_;
    data_ = nullptr;
  }
  static ChezDataset* data_;
};
ChezDataset* ChezBridge::data_ = nullptr;

TEST_F(ChezBridge, FullModeRawFileIsValidAndHoldsEveryCollectionAndBatch) {
  TempDir dir;
  const std::string raw = dir.path() + "/x.events.jsonl";
  ChezWorker w(bridge_env("full", raw, kRunId));
  EXPECT_EQ(w.hello()["bridge"], "full");
  // Registered as the harness registers a worker: its pid and start time, while it waits.
  const auto stat = proc::read_proc_stat(w.process().pid());
  ASSERT_TRUE(stat);
  Session s = drive_to_result(w, configure_message(data_->db, traced_options()));
  end_session(w, s);
  ASSERT_EQ(s.exit.code, 0);
  ASSERT_EQ(s.result["status"], "ok") << s.result["conditions"].dump();

  EventContext ctx;
  ctx.run_id = kRunId;
  ctx.boot_id = proc::read_boot_id();
  ctx.cohort.emplace(w.process().pid(), stat->start_time_ticks);
  const EventFileReport report = check_event_file(raw, ctx);
  EXPECT_TRUE(report.ok()) << problems(report);
  ASSERT_TRUE(report.header);
  ASSERT_TRUE(report.trailer);
  EXPECT_EQ((*report.header)["collector"], "bridge");
  EXPECT_EQ((*report.header)["clock"], "CLOCK_MONOTONIC");
  EXPECT_EQ((*report.header)["run_id"], kRunId);
  EXPECT_EQ((*report.trailer)["dropped"], 0);
  EXPECT_EQ((*report.trailer)["records"], report.records);

  const auto records = records_of(raw);
  std::vector<std::string> phases;
  std::map<std::string, std::uint64_t> types;
  std::map<std::string, int> open_spans;
  std::uint64_t span_pairs = 0;
  std::uint64_t gc_pairs = 0;
  std::uint64_t canaries = 0;
  const json* open_gc = nullptr;
  std::uint64_t last_gc_t = 0;
  // A phase counts the collections between its t_start_ns and t_finished_ns.
  const auto window_of = [](const json& phase) {
    return std::make_pair(ns(phase["t_start_ns"]), ns(phase["t_finished_ns"]));
  };
  const auto warmup = window_of(s.warmup_done);
  const auto measure = window_of(s.result);
  std::uint64_t gc_in_warmup = 0;
  std::uint64_t gc_in_measure = 0;
  for (const json& r : records) {
    const std::string type = r.at("type");
    ++types[type];
    const std::uint64_t t = ns(r.at("t_ns"));
    if (type == "phase") phases.push_back(r.at("name"));
    if (type == "canary") {
      EXPECT_EQ(ns(r.at("n")), canaries);
      ++canaries;
      EXPECT_EQ(phases.back(), "startup");  // before the barrier is released
    }
    if (type == "span_begin") {
      EXPECT_TRUE(r.at("name") == "chez.read_batch" || r.at("name") == "chez.write_batch");
      ++open_spans[r.at("span_id").get<std::string>()];
    }
    if (type == "span_end") {
      EXPECT_EQ(open_spans.erase(r.at("span_id").get<std::string>()), 1u);
      ++span_pairs;
    }
    if (type == "gc_begin") {
      // Collections do not nest: each begin follows the previous end.
      EXPECT_EQ(open_gc, nullptr);
      EXPECT_GE(t, last_gc_t);
      EXPECT_LE(r.at("generation").get<int>(), 4);
      EXPECT_GT(bytes_of(r), 0u);
      open_gc = &r;
      last_gc_t = t;
    }
    if (type == "gc_end") {
      ASSERT_NE(open_gc, nullptr);
      EXPECT_EQ(r.at("generation"), open_gc->at("generation"));
      EXPECT_GE(t, last_gc_t);
      EXPECT_GT(bytes_of(r), 0u);
      const std::uint64_t begin_t = ns(open_gc->at("t_ns"));
      if (begin_t >= warmup.first && t <= warmup.second) ++gc_in_warmup;
      if (begin_t >= measure.first && t <= measure.second) ++gc_in_measure;
      last_gc_t = t;
      open_gc = nullptr;
      ++gc_pairs;
    }
    if (type == "alloc_sample") {
      EXPECT_EQ(r.at("site").get<std::string>().rfind("chez.", 0), 0u) << r.dump();
    }
  }
  EXPECT_EQ(open_gc, nullptr);
  EXPECT_TRUE(open_spans.empty());
  EXPECT_EQ(phases, (std::vector<std::string>{"startup", "warmup", "measure", "teardown"}));
  EXPECT_EQ(canaries, 1u);
  // The file and the result tell the same story: one pair per collection a phase counted, one
  // span per batch the phases ran (counted or cut at a deadline).
  EXPECT_EQ(gc_in_warmup, s.warmup_done["gc"]["collections"].get<std::uint64_t>());
  EXPECT_EQ(gc_in_measure, s.result["gc"]["collections"].get<std::uint64_t>());
  EXPECT_GT(gc_pairs, 0u);
  const auto batches = [](const json& phase) {
    return phase["transactions"].get<std::uint64_t>() +
           phase["transactions_straddled"].get<std::uint64_t>();
  };
  EXPECT_EQ(span_pairs, batches(s.warmup_done) + batches(s.result));
  // Every 10th of the 1400 operations is an allocation sample.
  EXPECT_EQ(types["alloc_sample"], 140u);
}

TEST_F(ChezBridge, LightModeRecordsCollectionsButNoAllocationSamples) {
  TempDir dir;
  const std::string raw = dir.path() + "/x.events.jsonl";
  const Session s =
      run_session(configure_message(data_->db, traced_options()), bridge_env("light", raw, kRunId));
  ASSERT_EQ(s.exit.code, 0);
  EXPECT_EQ(s.hello["bridge"], "light");
  std::map<std::string, std::uint64_t> types;
  for (const json& r : records_of(raw)) ++types[r.at("type").get<std::string>()];
  EXPECT_GT(types["gc_begin"], 0u);
  EXPECT_EQ(types["gc_begin"], types["gc_end"]);
  EXPECT_GT(types["span_begin"], 0u);
  EXPECT_EQ(types["canary"], 1u);
  EXPECT_EQ(types["alloc_sample"], 0u);
}

TEST_F(ChezBridge, UnrecordedModesWriteNothingAndTracingDoesNotChangeTheWork) {
  TempDir dir;
  std::map<std::string, json> digests;
  for (const std::string mode : {"off", "no-consumer", "full"}) {
    const std::string raw = dir.path() + "/" + mode + ".events.jsonl";
    const Session s =
        run_session(configure_message(data_->db, traced_options()), bridge_env(mode, raw, kRunId));
    ASSERT_EQ(s.exit.code, 0) << mode;
    EXPECT_EQ(s.hello["bridge"], mode);
    EXPECT_EQ(exists(raw), mode == "full") << mode;
    digests[mode] = s.result["result_digest"];
  }
  EXPECT_EQ(digests["off"], digests["no-consumer"]);
  EXPECT_EQ(digests["off"], digests["full"]);
}

}  // namespace
}  // namespace jbench::test

namespace jbench::test {
namespace {

// Collections that happen in another Chez process — the same executable, allocating hard the
// whole time — never reach the worker's file or totals: GC events are attributed by the runtime
// that collected, through its own bridge.
TEST(ChezBridgeBystander, ASameNameProcessCollectingBesideTheWorkerChangesNothing) {
  ChezDataset data(2000, 32, 17);
  proc::SpawnSpec spec;
  spec.executable = "/usr/bin/chezscheme";
  spec.args = {"-q"};
  auto spawned = proc::ChildProcess::spawn(spec);
  ASSERT_TRUE(spawned) << spawned.error().message;
  proc::ChildProcess& bystander = **spawned;
  const Status fed = bystander.write_line(
      "(let loop ((i 0) (keep '())) (loop (+ i 1) (if (= 0 (mod i 64)) '() "
      "(cons (make-vector 256 i) keep))))",
      2000);
  ASSERT_TRUE(fed) << fed.error().message;

  TempDir dir;
  const std::string raw = dir.path() + "/x.events.jsonl";
  ChezWorker w(bridge_env("full", raw, kRunId));
  const auto stat = proc::read_proc_stat(w.process().pid());
  ASSERT_TRUE(stat);
  Session s = drive_to_result(w, configure_message(data.db, traced_options()));
  end_session(w, s);
  // The bystander was collecting throughout.
  const auto bystander_stat = proc::read_proc_stat(bystander.pid());
  ASSERT_TRUE(bystander_stat);
  EXPECT_GT(bystander_stat->utime_ticks, 0u);
  bystander.kill_and_reap();
  ASSERT_EQ(s.result["status"], "ok") << s.result["conditions"].dump();

  // Only the registered worker is in the cohort: a record of any other process is a problem.
  EventContext ctx;
  ctx.run_id = kRunId;
  ctx.boot_id = proc::read_boot_id();
  ctx.cohort.emplace(w.process().pid(), stat->start_time_ticks);
  const EventFileReport report = check_event_file(raw, ctx);
  EXPECT_TRUE(report.ok()) << problems(report);
  std::uint64_t gc_in_measure = 0;
  const std::uint64_t from = ns(s.result["t_start_ns"]);
  const std::uint64_t to = ns(s.result["t_finished_ns"]);
  std::uint64_t begin_t = 0;
  for (const json& r : records_of(raw)) {
    EXPECT_EQ(r.at("pid").get<std::int64_t>(), w.process().pid());
    if (r.at("type") == "gc_begin") begin_t = ns(r.at("t_ns"));
    if (r.at("type") == "gc_end" && begin_t >= from && ns(r.at("t_ns")) <= to) ++gc_in_measure;
  }
  EXPECT_EQ(gc_in_measure, s.result["gc"]["collections"].get<std::uint64_t>());
}

}  // namespace
}  // namespace jbench::test
