// The raw file's contract: valid for jbench's event checker, drops counted when the buffer is
// full, no file at all without JBENCH_ALLOC_OUT, bad settings and foreign files refused with one
// clear line, and the target program undisturbed in every case.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "alloc_target_run.h"
#include "jbench/alloc/alloc_summary.h"
#include "jbench/events/event_file.h"
#include "temp_dir.h"

namespace jbench::alloc_test {
namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

std::set<std::string> codes(const EventFileReport& r) {
  std::set<std::string> out;
  for (const auto& p : r.problems) out.insert(p.code);
  return out;
}

std::size_t line_count(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST(AllocOutput, the_raw_file_passes_the_event_checker) {
  test::TempDir dir;
  const std::string out = dir.path() + "/alloc.events.jsonl";
  const TargetRun run =
      run_target({"mixed", std::to_string(256 * kMiB)}, true,
                 {{"JBENCH_ALLOC_OUT", out}, {"JBENCH_ALLOC_MEAN_BYTES", "65536"}});
  ASSERT_EQ(run.process.exit_code, 0) << run.process.err;
  const TargetLine main = run.line("main");
  const EventFileReport checked = check_event_file(out, context_of({main}));
  EXPECT_TRUE(checked.ok()) << describe(checked);
  ASSERT_TRUE(checked.header.has_value());
  EXPECT_EQ(checked.header->value("collector", ""), "alloc");
  EXPECT_EQ((*checked.header)["units"].value("bytes", ""), "bytes");
  EXPECT_EQ(checked.unknown_types, 1u) << "alloc_summary is the one type v1 readers skip";
  ASSERT_TRUE(checked.trailer.has_value());
  EXPECT_EQ((*checked.trailer)["dropped"], 0);

  // The records say which call and which code allocated: the target's own calls are named by
  // its path and an offset, the same in every run.
  std::set<std::string> calls;
  std::size_t in_target = 0;
  const std::string target_site = std::string(ALLOC_TARGET) + "+0x";
  for (const auto& l : read_json_lines(out)) {
    if (l.value("type", "") != "alloc_sample") continue;
    calls.insert(l.value("call", ""));
    if (l.value("site", "").rfind(target_site, 0) == 0) ++in_target;
  }
  EXPECT_GT(in_target, 0u);
  for (const char* call : {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc"}) {
    EXPECT_TRUE(calls.count(call)) << call << " was never sampled";
  }

  // The event checker fails the file for a cohort that does not hold the process.
  const EventFileReport stranger = check_event_file(out, context_of({}));
  EXPECT_TRUE(codes(stranger).count("events.outside_cohort"));
}

TEST(AllocOutput, a_relative_path_is_taken_from_the_starting_directory) {
  test::TempDir dir;
  const TargetRun run = run_target({"mixed", std::to_string(16 * kMiB)}, true,
                                   {{"JBENCH_ALLOC_OUT", "relative.events.jsonl"}}, dir.path());
  ASSERT_EQ(run.process.exit_code, 0) << run.process.err;
  const std::string out = dir.path() + "/relative.events.jsonl";
  const EventFileReport checked = check_event_file(out, context_of({run.line("main")}));
  EXPECT_TRUE(checked.ok()) << describe(checked);
}

TEST(AllocOutput, a_full_buffer_drops_and_counts_in_the_trailer) {
  test::TempDir dir;
  const std::string out = dir.path() + "/alloc.events.jsonl";
  const TargetRun run = run_target({"mixed", std::to_string(256 * kMiB)}, true,
                                   {{"JBENCH_ALLOC_OUT", out},
                                    {"JBENCH_ALLOC_MEAN_BYTES", "65536"},
                                    {"JBENCH_ALLOC_BUFFER", "8"}});
  ASSERT_EQ(run.process.exit_code, 0) << run.process.err;
  const TargetLine main = run.line("main");
  const EventFileReport checked = check_event_file(out, context_of({main}));
  EXPECT_EQ(codes(checked), (std::set<std::string>{"events.dropped", "events.overflow"}))
      << describe(checked);
  const auto lines = read_json_lines(out);
  const auto summary = summary_record(lines);
  const std::uint64_t dropped = lines.back()["dropped"].get<std::uint64_t>();
  // 256 MiB at a 64 KiB mean: hundreds of samples (an allocation is sampled at most once, so
  // fewer than 4096 when most bytes are in large ones), of which 8 are kept.
  EXPECT_GT(dropped, 100u);
  EXPECT_EQ(decimal(summary["dropped"]), dropped);
  EXPECT_EQ(decimal(summary["recorded"]), 8u);
  EXPECT_EQ(decimal(summary["samples"]), 8u + dropped);

  const auto report = alloc::read_alloc_file(out, context_of({main}), {});
  ASSERT_EQ(report.incarnations.size(), 1u);
  const auto& who = report.incarnations[0];
  EXPECT_EQ(who.dropped, dropped);
  ASSERT_TRUE(who.first_drop_ns.has_value());
  EXPECT_TRUE(who.phases.back().second.lossy);
  // The dropped samples still count towards the total the sampler keeps.
  const double total = who.estimated_bytes + static_cast<double>(who.dropped_estimated_bytes);
  const double bytes = static_cast<double>(main.allocated_bytes());
  EXPECT_NEAR(total, bytes, 0.15 * bytes);
}

TEST(AllocOutput, without_an_output_file_the_library_is_inert) {
  ::unsetenv("JBENCH_ALLOC_OUT");  // whatever the test's own environment holds
  for (const char* value : {"(unset)", ""}) {
    test::TempDir dir;
    std::vector<std::pair<std::string, std::string>> env;
    if (std::string(value) != "(unset)") env.emplace_back("JBENCH_ALLOC_OUT", value);
    const TargetRun run = run_target({"mixed", std::to_string(64 * kMiB)}, true, env);
    EXPECT_EQ(run.process.exit_code, 0);
    EXPECT_EQ(run.process.err, "");
    EXPECT_GT(run.line("main").allocated_bytes(), 64 * kMiB - 1);
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  }
}

TEST(AllocOutput, a_bad_setting_is_reported_once_and_ends_the_collector_with_code_2) {
  test::TempDir dir;
  const std::string out = dir.path() + "/alloc.events.jsonl";
  const TargetRun run =
      run_target({"mixed", std::to_string(16 * kMiB)}, true,
                 {{"JBENCH_ALLOC_OUT", out}, {"JBENCH_ALLOC_MEAN_BYTES", "lots"}});
  EXPECT_EQ(run.process.exit_code, 0) << "the target itself is not disturbed";
  EXPECT_EQ(line_count(run.process.err), 1u) << run.process.err;
  EXPECT_NE(run.process.err.find("JBENCH_ALLOC_MEAN_BYTES"), std::string::npos);
  const auto lines = read_json_lines(out);
  ASSERT_EQ(lines.size(), 2u) << "a header and a trailer, no samples";
  EXPECT_EQ(lines[1]["ended"]["code"], 2);
  EXPECT_NE(lines[1].value("reason", "").find("JBENCH_ALLOC_MEAN_BYTES"), std::string::npos);
  const auto report = alloc::read_alloc_file(out, context_of({run.line("main")}), {});
  std::set<std::string> found;
  for (const auto& p : report.problems) found.insert(p.code);
  EXPECT_TRUE(found.count("alloc.collector_failed"));
  EXPECT_TRUE(found.count("events.bad_end"));
}

TEST(AllocOutput, an_existing_file_of_another_run_is_refused_and_left_intact) {
  test::TempDir dir;
  const std::string out = dir.write("alloc.events.jsonl", "someone else's data\n");
  const TargetRun run =
      run_target({"mixed", std::to_string(16 * kMiB)}, true, {{"JBENCH_ALLOC_OUT", out}});
  EXPECT_EQ(run.process.exit_code, 0);
  EXPECT_EQ(line_count(run.process.err), 1u) << run.process.err;
  EXPECT_NE(run.process.err.find(out), std::string::npos);
  std::ifstream in(out);
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(content, "someone else's data\n");
  EXPECT_EQ(alloc::find_alloc_files(out), std::vector<std::string>{out}) << "no child file either";
}

}  // namespace
}  // namespace jbench::alloc_test
