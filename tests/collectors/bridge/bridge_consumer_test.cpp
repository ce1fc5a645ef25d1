// The bridge consumer on checked-in raw files (fixtures/bridge-*.events.jsonl: one worker, pid
// 4242, start time 1000; a transaction span with one statement child, two collections, one
// allocation sample).
#include "jbench/collectors/bridge/bridge_consumer.h"

#include <gtest/gtest.h>

#include <fstream>

namespace jbench::collectors {
namespace {

using nlohmann::json;

BridgeConsumerInput input_for(const std::string& file) {
  BridgeConsumerInput in;
  in.files = {JBENCH_COLLECT_FIXTURES, {file}};
  in.run_id = "fixture.run";
  in.boot_id = "00000000-0000-4000-8000-000000000000";
  in.cohort = {{4242, 1000}};
  in.workers = 1;
  in.canaries_seen = {0};
  in.started_ns = 1;
  in.attached_ns = 1;
  in.phases = PhaseBoundaries::from_json(
      {{"warmup_start_ns", "1500"}, {"measure_start_ns", "5000"}, {"teardown_start_ns", "9000"}});
  in.gc_expected = true;
  in.alloc_in_runtime = true;
  in.setting = "full";
  return in;
}

const CollectorEntry& entry(const BridgeConsumerOutput& out, const std::string& name) {
  for (const auto& e : out.entries) {
    if (e.name == name) return e;
  }
  throw std::runtime_error("no entry " + name);
}

// What a reader would compute by hand from the file: every record's fields.
std::vector<json> records_of(const std::string& file) {
  std::ifstream in(std::string(JBENCH_COLLECT_FIXTURES) + "/" + file);
  std::vector<json> out;
  for (std::string line; std::getline(in, line);) {
    json j = json::parse(line);
    if (j["kind"] == "record") out.push_back(j);
  }
  return out;
}

TEST(BridgeConsumer, ACompleteFileGivesVerifiedEntriesAndRecomputableSummaries) {
  const auto out = consume(input_for("bridge-complete.events.jsonl"));
  const auto records = records_of("bridge-complete.events.jsonl");
  EXPECT_EQ(entry(out, "bridge").status, kOk) << entry(out, "bridge").reason;
  EXPECT_EQ(entry(out, "bridge").records, records.size());
  EXPECT_EQ(entry(out, "spans").status, kOk);
  EXPECT_EQ(entry(out, "gc").status, kOk);
  EXPECT_EQ(entry(out, "alloc").status, kOk);

  // Self time of the parent = its duration less its child's.
  std::map<std::string, std::uint64_t> begin, end;
  for (const auto& r : records) {
    if (r["type"] == "span_begin") begin[r["name"]] = std::stoull(r["t_ns"].get<std::string>());
  }
  const auto& by_name = out.spans_summary["by_name"];
  ASSERT_EQ(by_name.size(), 2u);
  std::uint64_t parent_total = 0, parent_self = 0, child_total = 0;
  for (const auto& s : by_name) {
    if (s["name"] == "transaction:write") {
      parent_total = std::stoull(s["total_ns"].get<std::string>());
      parent_self = std::stoull(s["self_ns"].get<std::string>());
    } else {
      child_total = std::stoull(s["total_ns"].get<std::string>());
    }
  }
  EXPECT_GT(child_total, 0u);
  EXPECT_EQ(parent_self, parent_total - child_total);

  // Each collection's pause is end - begin, attributed to the phase it began in.
  std::uint64_t pauses = 0, reclaimed = 0, last_begin = 0, before = 0;
  for (const auto& r : records) {
    const auto t = std::stoull(r["t_ns"].get<std::string>());
    if (r["type"] == "gc_begin") {
      last_begin = t;
      before = std::stoull(r["bytes"].get<std::string>());
    }
    if (r["type"] == "gc_end") {
      pauses += t - last_begin;
      reclaimed += before - std::stoull(r["bytes"].get<std::string>());
    }
  }
  std::uint64_t summed_pauses = 0, summed_reclaimed = 0, collections = 0;
  std::set<std::string> phases;
  for (const auto& c : out.gc_summary["cells"]) {
    summed_pauses += std::stoull(c["pause_total_ns"].get<std::string>());
    summed_reclaimed += std::stoull(c["bytes_reclaimed"].get<std::string>());
    collections += c["collections"].get<std::uint64_t>();
    phases.insert(c["phase"]);
    EXPECT_EQ(c["pid"], 4242);
  }
  EXPECT_EQ(collections, 2u);
  EXPECT_EQ(summed_pauses, pauses);
  EXPECT_EQ(summed_reclaimed, reclaimed);
  EXPECT_EQ(phases, (std::set<std::string>{"warmup", "measure"}));
}

TEST(BridgeConsumer, AFileWithoutTrailerFailsEveryDerivedCollector) {
  const auto out = consume(input_for("bridge-no-trailer.events.jsonl"));
  for (const auto& e : out.entries) {
    EXPECT_EQ(e.status, kCollectorFailed) << e.name;
    EXPECT_NE(e.reason.find("trailer"), std::string::npos) << e.reason;
  }
}

TEST(BridgeConsumer, DropsFailTheCollectorsAndAreCounted) {
  const auto out = consume(input_for("bridge-dropped.events.jsonl"));
  EXPECT_EQ(entry(out, "bridge").status, kCollectorFailed);
  EXPECT_EQ(entry(out, "bridge").dropped, 3u);
}

TEST(BridgeConsumer, AMissingCanaryIsAttachmentNotVerified) {
  auto in = input_for("bridge-complete.events.jsonl");
  in.workers = 2;
  in.files.files.push_back("bridge-complete.events.jsonl");
  in.canaries_seen = {0};
  const auto out = consume(in);
  EXPECT_EQ(entry(out, "spans").status, kCollectorFailed);
  EXPECT_NE(entry(out, "spans").reason.find("not verified"), std::string::npos);
}

TEST(BridgeConsumer, RecordsOfAnUnregisteredProcessAreRefused) {
  auto in = input_for("bridge-complete.events.jsonl");
  in.cohort = {{4242, 999}};  // same pid, another incarnation
  const auto out = consume(in);
  EXPECT_EQ(entry(out, "bridge").status, kCollectorFailed);
}

TEST(BridgeConsumer, AwaitCanariesFindsThemInTheFilesAndGivesUpAtTheDeadline) {
  BridgeFiles files{JBENCH_COLLECT_FIXTURES,
                    {"bridge-complete.events.jsonl", "does-not-exist.events.jsonl"}};
  const auto seen = await_canaries(files, 0);
  EXPECT_EQ(seen, std::vector<std::size_t>{0});
}

}  // namespace
}  // namespace jbench::collectors
