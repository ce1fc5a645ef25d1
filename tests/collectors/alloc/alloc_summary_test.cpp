// jbench::alloc_summary on checked-in files (fixtures/): phase splitting, the summary check,
// drops, and the problems it reports. Expected values are recomputed from the fixtures' records.
#include "jbench/alloc/alloc_summary.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "alloc_target_run.h"
#include "jbench/alloc/sample_weight.h"
#include "jbench/events/compressed_file.h"
#include "temp_dir.h"

namespace jbench::alloc {
namespace {

using alloc_test::decimal;
using alloc_test::read_json_lines;

const std::string kDir = ALLOC_FIXTURES;

EventContext fixture_context() {
  return EventContext{"alloc.fixture.r1", "00000000-0000-4000-8000-00000000f1e7", {{4242, 777}}};
}

std::set<std::string> codes(const AllocReport& r) {
  std::set<std::string> out;
  for (const auto& p : r.problems) out.insert(p.code);
  return out;
}

// Samples and estimated bytes of the fixture's records with t_ns in [start, end).
PhaseTotals expected(const std::string& file, std::uint64_t start, std::uint64_t end) {
  PhaseTotals t;
  for (const auto& l : read_json_lines(kDir + "/" + file)) {
    if (l.value("type", "") != "alloc_sample") continue;
    const std::uint64_t at = decimal(l["t_ns"]);
    if (at < start || at >= end) continue;
    ++t.samples;
    t.estimated_bytes += sample_weight(decimal(l["bytes"]), 1000);
  }
  return t;
}

TEST(AllocSummary, splits_samples_of_every_thread_into_the_given_phases) {
  const std::vector<PhaseWindow> phases = {{"warmup", 150, 300}, {"measure", 300, 450}};
  const AllocReport r =
      read_alloc_file(kDir + "/two_threads.events.jsonl", fixture_context(), phases);
  ASSERT_TRUE(r.ok()) << r.problems.front().code << ": " << r.problems.front().message;
  ASSERT_EQ(r.incarnations.size(), 1u);
  const IncarnationAlloc& who = r.incarnations[0];
  EXPECT_EQ(who.pid, 4242);
  EXPECT_EQ(who.start_time_ticks, 777u);
  EXPECT_EQ(who.mean_bytes, 1000u);
  ASSERT_EQ(who.phases.size(), 3u);
  const std::string file = "two_threads.events.jsonl";
  const PhaseTotals warmup = expected(file, 150, 300);
  const PhaseTotals measure = expected(file, 300, 450);
  const PhaseTotals all = expected(file, 0, UINT64_MAX);
  EXPECT_EQ(who.phases[0].first, "warmup");
  EXPECT_EQ(who.phases[0].second.samples, warmup.samples);
  EXPECT_DOUBLE_EQ(who.phases[0].second.estimated_bytes, warmup.estimated_bytes);
  EXPECT_EQ(who.phases[1].first, "measure");
  EXPECT_EQ(who.phases[1].second.samples, measure.samples);
  EXPECT_DOUBLE_EQ(who.phases[1].second.estimated_bytes, measure.estimated_bytes);
  EXPECT_EQ(who.phases[2].first, kOutsidePhases);
  EXPECT_EQ(who.phases[2].second.samples, all.samples - warmup.samples - measure.samples);
  EXPECT_EQ(who.recorded, all.samples);
  EXPECT_NEAR(who.estimated_bytes, all.estimated_bytes, 1e-6);
  for (const auto& [name, totals] : who.phases) EXPECT_FALSE(totals.lossy) << name;
}

// A run keeps the sampler's files compressed once it has read them: the same incarnation, the
// same totals; a copy cut short is refused as unreadable, never read as a shorter file.
TEST(AllocSummary, a_file_kept_compressed_reads_as_the_file_written_and_a_cut_one_is_refused) {
  test::TempDir dir;
  const std::string file = "two_threads.events.jsonl";
  const std::vector<PhaseWindow> phases = {{"warmup", 150, 300}, {"measure", 300, 450}};
  const AllocReport plain = read_alloc_file(kDir + "/" + file, fixture_context(), phases);
  const std::string copy = dir.path() + "/" + file + events::kCompressedSuffix;
  ASSERT_TRUE(events::compress_file(kDir + "/" + file, copy).ok());
  const AllocReport kept = read_alloc_file(copy, fixture_context(), phases);
  ASSERT_TRUE(kept.ok()) << kept.problems.front().code << ": " << kept.problems.front().message;
  ASSERT_EQ(kept.incarnations.size(), 1u);
  EXPECT_EQ(kept.incarnations[0].recorded, plain.incarnations.at(0).recorded);
  EXPECT_EQ(kept.incarnations[0].estimated_bytes, plain.incarnations[0].estimated_bytes);
  for (std::size_t i = 0; i < phases.size(); ++i) {
    EXPECT_EQ(kept.incarnations[0].phases[i].second.samples,
              plain.incarnations[0].phases[i].second.samples);
  }
  std::filesystem::resize_file(copy, std::filesystem::file_size(copy) - 7);
  EXPECT_TRUE(codes(read_alloc_file(copy, fixture_context(), phases)).count("events.unreadable"));
}

TEST(AllocSummary, a_summary_that_the_records_do_not_give_is_a_problem) {
  const AllocReport r =
      read_alloc_file(kDir + "/summary_mismatch.events.jsonl", fixture_context(), {});
  EXPECT_EQ(codes(r), std::set<std::string>{"alloc.summary_mismatch"});
}

TEST(AllocSummary, a_complete_file_without_a_summary_is_a_problem) {
  const AllocReport r = read_alloc_file(kDir + "/no_summary.events.jsonl", fixture_context(), {});
  EXPECT_EQ(codes(r), std::set<std::string>{"alloc.no_summary"});
}

TEST(AllocSummary, drops_mark_the_phases_from_the_first_drop_on_as_lossy) {
  const std::vector<PhaseWindow> phases = {{"warmup", 0, 300}, {"measure", 300, 800}};
  const AllocReport r = read_alloc_file(kDir + "/dropped.events.jsonl", fixture_context(), phases);
  EXPECT_EQ(codes(r), (std::set<std::string>{"events.dropped", "events.overflow"}));
  ASSERT_EQ(r.incarnations.size(), 1u);
  const IncarnationAlloc& who = r.incarnations[0];
  const auto lines = read_json_lines(kDir + "/dropped.events.jsonl");
  const auto summary = alloc_test::summary_record(lines);
  EXPECT_EQ(who.dropped, decimal(summary["dropped"]));
  EXPECT_EQ(who.samples, who.recorded + who.dropped);
  EXPECT_EQ(who.dropped_estimated_bytes, decimal(summary["dropped_estimated_bytes"]));
  ASSERT_TRUE(who.first_drop_ns.has_value());
  // The first drop is inside "measure": warmup ended before it and is complete.
  EXPECT_LT(phases[0].end_ns, *who.first_drop_ns);
  EXPECT_FALSE(who.phases[0].second.lossy);
  EXPECT_TRUE(who.phases[1].second.lossy);
  EXPECT_TRUE(who.phases[2].second.lossy);
}

TEST(AllocSummary, a_record_of_another_process_is_refused) {
  const AllocReport r =
      read_alloc_file(kDir + "/foreign_record.events.jsonl", fixture_context(), {});
  EXPECT_TRUE(codes(r).count("alloc.foreign_record"));
  EXPECT_TRUE(codes(r).count("events.outside_cohort"));
  ASSERT_EQ(r.incarnations.size(), 1u);
  EXPECT_EQ(r.incarnations[0].recorded, 1u) << "the foreign record is not counted";
}

TEST(AllocSummary, another_collectors_file_yields_no_incarnation) {
  const AllocReport r =
      read_alloc_file(kDir + "/other_collector.events.jsonl", fixture_context(), {});
  EXPECT_TRUE(codes(r).count("alloc.not_alloc"));
  EXPECT_TRUE(r.incarnations.empty());
}

TEST(AllocSummary, a_missing_file_is_reported_unreadable) {
  const AllocReport r = read_alloc_file(kDir + "/does-not-exist.jsonl", fixture_context(), {});
  EXPECT_TRUE(codes(r).count("events.unreadable"));
  EXPECT_TRUE(r.incarnations.empty());
}

TEST(AllocSummary, phases_come_from_the_run_boundaries) {
  const auto boundaries = nlohmann::json::parse(R"({
    "startup_start_ns": "100", "warmup_start_ns": "200", "warmup_end_ns": "300",
    "measure_start_ns": "310", "measure_end_ns": "900",
    "teardown_start_ns": "950", "teardown_end_ns": "990"})");
  const auto phases = phases_from_boundaries(boundaries);
  ASSERT_EQ(phases.size(), 4u);
  EXPECT_EQ(phases[0].name, "startup");
  EXPECT_EQ(phases[0].end_ns, 200u) << "startup has no end of its own: warmup's start ends it";
  EXPECT_EQ(phases[2].name, "measure");
  EXPECT_EQ(phases[2].start_ns, 310u);
  EXPECT_EQ(phases[2].end_ns, 900u);
  EXPECT_EQ(phases[3].name, "teardown");
  // A run that stopped early has fewer phases, never invented ones.
  EXPECT_EQ(phases_from_boundaries(nlohmann::json::parse(R"({"startup_start_ns":"5"})")).size(),
            0u);
}

TEST(AllocSummary, finds_the_file_and_its_children_files_only) {
  test::TempDir dir;
  const std::string out = dir.write("a.events.jsonl", "");
  dir.write("a.events.jsonl.123", "");
  dir.write("a.events.jsonl.45", "");
  dir.write("a.events.jsonl.12x", "");
  dir.write("a.events.jsonl.123.tmp", "");
  dir.write("b.events.jsonl.123", "");
  EXPECT_EQ(find_alloc_files(out), (std::vector<std::string>{out, out + ".123", out + ".45"}));
  EXPECT_EQ(find_alloc_files(dir.path() + "/none"), std::vector<std::string>{});
  // The same files once kept compressed, a child's and the process's own.
  const std::string kept = dir.path() + "/c.events.jsonl";
  dir.write("c.events.jsonl.zst", "");
  dir.write("c.events.jsonl.77.zst", "");
  dir.write("c.events.jsonl.7x.zst", "");
  EXPECT_EQ(find_alloc_files(kept), (std::vector<std::string>{kept + ".zst", kept + ".77.zst"}));
}

}  // namespace
}  // namespace jbench::alloc
