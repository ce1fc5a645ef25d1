// The sampler's estimate against the truth: the target counts the bytes it allocates, the
// sampler estimates them from its samples, and the two must agree within 5%.
//
// How large a workload makes "within 5%" hold with overwhelming probability (the estimator and
// its variance are derived in docs/collectors/alloc.md): with mean interval M and B bytes
// allocated, the estimate is a sum of independent per-allocation terms with variance at most
// M * B, each centred term bounded by b = max(M, largest allocation). Bernstein's inequality:
//
//   P(|estimate - B| >= 0.05 B) <= 2 exp(-(0.05 B)^2 / 2 / (M B + b * 0.05 B / 3))
//
// The target's allocations are at most 1.5 MiB + 4 KiB (alloc_target.c). At the default
// M = 512 KiB and B = 8 GiB: B/M = 16384, b = 3.01 M, the exponent is 0.00125 * 16384 / 1.050
// = 19.5, so a miss has probability below 7e-9 (the relative standard deviation is
// sqrt(M/B) = 0.78%). Each test below computes its own bound with estimate_miss_probability()
// and refuses to run a workload whose bound is above 1e-6.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "alloc_target_run.h"
#include "jbench/alloc/alloc_summary.h"
#include "jbench/events/event_file.h"
#include "temp_dir.h"

namespace jbench::alloc_test {
namespace {

constexpr double kDefaultMean = 512 * 1024;

void expect_workload_decides(double mean, double bytes) {
  const double p = estimate_miss_probability(mean, bytes, kLargestAllocation, 0.05);
  ASSERT_LT(p, 1e-6) << "the workload is too small for a 5% bound to be a reliable test";
}

void expect_within(double estimate, double truth, double rel, const std::string& what) {
  EXPECT_LE(std::fabs(estimate - truth), rel * truth)
      << what << ": estimate " << estimate << " vs " << truth << " allocated ("
      << 100.0 * (estimate - truth) / truth << "%)";
}

TEST(AllocEstimate, default_rate_estimate_is_within_five_percent) {
  expect_workload_decides(kDefaultMean, 8.0 * static_cast<double>(kGiB));
  for (const char* seed : {"1", "2", "3"}) {
    test::TempDir dir;
    const std::string out = dir.path() + "/alloc.events.jsonl";
    const TargetRun run = run_target({"mixed", std::to_string(8 * kGiB)}, true,
                                     {{"JBENCH_ALLOC_OUT", out}, {"JBENCH_ALLOC_SEED", seed}});
    ASSERT_EQ(run.process.exit_code, 0) << run.process.err;
    EXPECT_EQ(run.process.err, "");
    const TargetLine main = run.line("main");
    const auto lines = read_json_lines(out);
    const auto summary = summary_record(lines);
    ASSERT_TRUE(summary.is_object());
    EXPECT_EQ(decimal(summary["mean_bytes"]), 512u * 1024u);
    EXPECT_EQ(decimal(summary["dropped"]), 0u);
    expect_within(static_cast<double>(decimal(summary["estimated_bytes"])),
                  static_cast<double>(main.allocated_bytes()), 0.05,
                  std::string("summary, seed ") + seed);

    // The reader recomputes the same estimate from the records, and the file is valid.
    const auto report = alloc::read_alloc_file(out, context_of({main}), {});
    ASSERT_TRUE(report.ok()) << report.problems.front().code << ": "
                             << report.problems.front().message;
    ASSERT_EQ(report.incarnations.size(), 1u);
    expect_within(report.incarnations[0].estimated_bytes,
                  static_cast<double>(main.allocated_bytes()), 0.05,
                  std::string("reader, seed ") + seed);
  }
}

TEST(AllocEstimate, threads_each_have_their_own_stream_and_the_estimate_holds) {
  const std::uint64_t each = 512 * 1024 * 1024;
  const double mean = 64 * 1024;
  expect_workload_decides(mean, 4.0 * static_cast<double>(each));
  test::TempDir dir;
  const std::string out = dir.path() + "/alloc.events.jsonl";
  const TargetRun run =
      run_target({"threads", "4", std::to_string(each)}, true,
                 {{"JBENCH_ALLOC_OUT", out}, {"JBENCH_ALLOC_MEAN_BYTES", "65536"}});
  ASSERT_EQ(run.process.exit_code, 0) << run.process.err;
  const TargetLine main = run.line("threads");
  const auto checked = check_event_file(out, context_of({main}));
  EXPECT_TRUE(checked.ok()) << describe(checked);
  std::set<std::int64_t> tids;
  for (const auto& l : read_json_lines(out)) {
    if (l.value("type", "") == "alloc_sample") tids.insert(l["tid"].get<std::int64_t>());
  }
  EXPECT_GE(tids.size(), 4u) << "every allocating thread is its own stream";
  const auto summary = summary_record(read_json_lines(out));
  expect_within(static_cast<double>(decimal(summary["estimated_bytes"])),
                static_cast<double>(main.allocated_bytes()), 0.05, "four threads");
}

TEST(AllocEstimate, samples_split_into_the_phases_the_harness_timed) {
  const std::uint64_t each = 2 * kGiB;
  const double mean = 64 * 1024;
  expect_workload_decides(mean, static_cast<double>(each));
  test::TempDir dir;
  const std::string out = dir.path() + "/alloc.events.jsonl";
  const TargetRun run =
      run_target({"phases", std::to_string(each), std::to_string(each)}, true,
                 {{"JBENCH_ALLOC_OUT", out}, {"JBENCH_ALLOC_MEAN_BYTES", "65536"}});
  ASSERT_EQ(run.process.exit_code, 0) << run.process.err;
  const TargetLine main = run.line("main");
  const TargetLine bounds = run.lines.front();
  const std::vector<alloc::PhaseWindow> phases = {
      {"a", bounds.number("phase_a_start_ns"), bounds.number("phase_a_end_ns")},
      {"b", bounds.number("phase_a_end_ns"), bounds.number("phase_b_end_ns")}};
  const auto report = alloc::read_alloc_file(out, context_of({main}), phases);
  ASSERT_TRUE(report.ok()) << report.problems.front().code;
  ASSERT_EQ(report.incarnations.size(), 1u);
  const auto& who = report.incarnations[0];
  ASSERT_EQ(who.phases.size(), 3u);
  EXPECT_EQ(who.phases[0].first, "a");
  EXPECT_EQ(who.phases[1].first, "b");
  EXPECT_EQ(who.phases[2].first, alloc::kOutsidePhases);
  expect_within(who.phases[0].second.estimated_bytes, static_cast<double>(bounds.number("a_bytes")),
                0.05, "phase a");
  expect_within(who.phases[1].second.estimated_bytes, static_cast<double>(bounds.number("b_bytes")),
                0.05, "phase b");
  // Outside the two phases the program only starts and prints: a sliver of the samples.
  EXPECT_LT(who.phases[2].second.samples * 100, who.recorded);
  EXPECT_EQ(
      who.phases[0].second.samples + who.phases[1].second.samples + who.phases[2].second.samples,
      who.recorded);
}

// (bytes, call, site) of every sample: what a seed decides (times differ run to run).
std::vector<std::tuple<std::uint64_t, std::string, std::string>> sampled(const std::string& path) {
  std::vector<std::tuple<std::uint64_t, std::string, std::string>> out;
  for (const auto& l : read_json_lines(path)) {
    if (l.value("type", "") != "alloc_sample") continue;
    out.emplace_back(decimal(l["bytes"]), l.value("call", ""), l.value("site", ""));
  }
  return out;
}

TEST(AllocEstimate, same_seed_samples_the_same_allocations) {
  test::TempDir dir;
  const auto run_with = [&](const std::string& name, const char* seed) {
    const std::string out = dir.path() + "/" + name;
    const TargetRun run = run_target({"mixed", std::to_string(kGiB / 4)}, true,
                                     {{"JBENCH_ALLOC_OUT", out},
                                      {"JBENCH_ALLOC_MEAN_BYTES", "65536"},
                                      {"JBENCH_ALLOC_SEED", seed}});
    EXPECT_EQ(run.process.exit_code, 0) << run.process.err;
    return sampled(out);
  };
  const auto first = run_with("a.jsonl", "7");
  const auto again = run_with("b.jsonl", "7");
  const auto other = run_with("c.jsonl", "8");
  ASSERT_GT(first.size(), 100u);
  EXPECT_EQ(first, again) << "a fixed seed reproduces the samples";
  EXPECT_NE(first, other) << "another seed samples other allocations";
}

}  // namespace
}  // namespace jbench::alloc_test
