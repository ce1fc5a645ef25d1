// The raw event file reader on small hand-written files: each rule its own case.
#include "jbench/events/event_file.h"

#include <gtest/gtest.h>

#include <set>

#include "temp_dir.h"

namespace jbench {
namespace {

const std::string kHeader =
    R"({"kind":"header","schema":"jbench.events","schema_version":1,"collector":"spans",)"
    R"("backend":"bridge","clock":"CLOCK_MONOTONIC","units":{"t_ns":"ns"},"run_id":"r1",)"
    R"("boot_id":"b"})";

std::string rec(int seq, int t, const std::string& extra, int tid = 7) {
  return R"({"kind":"record","type":)" + extra + R"(,"seq":")" + std::to_string(seq) +
         R"(","pid":7,"start_time_ticks":"100","tid":)" + std::to_string(tid) + R"(,"t_ns":")" +
         std::to_string(t) + R"("})";
}

std::string trailer(int records) {
  return R"({"kind":"trailer","records":)" + std::to_string(records) +
         R"(,"dropped":0,"malformed":0,"ended":{"how":"exit","code":0}})";
}

std::set<std::string> codes_of(const std::vector<std::string>& lines) {
  test::TempDir dir;
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  const auto path = dir.write("f.events.jsonl", text);
  EventContext ctx{"r1", "b", {{7, 100}}};
  std::set<std::string> codes;
  for (const auto& p : check_event_file(path, ctx).problems) codes.insert(p.code);
  return codes;
}

TEST(EventFile, a_well_formed_file_has_no_problems) {
  EXPECT_EQ(codes_of({kHeader, rec(0, 10, R"("span_begin","span_id":"a","parent_id":null)"),
                      rec(1, 20, R"("span_end","span_id":"a")"), trailer(2)}),
            std::set<std::string>{});
}

// A parent must have begun before its child: a parent named before it begins is an orphan,
// which is also what keeps two spans from being each other's ancestors.
TEST(EventFile, parents_begin_before_their_children_so_no_cycle_can_form) {
  EXPECT_EQ(codes_of({kHeader, rec(0, 10, R"("span_begin","span_id":"a","parent_id":"b")"),
                      rec(1, 11, R"("span_begin","span_id":"b","parent_id":"a")"),
                      rec(2, 12, R"("span_end","span_id":"b")"),
                      rec(3, 13, R"("span_end","span_id":"a")"), trailer(4)}),
            std::set<std::string>{"events.orphan_span"});
}

TEST(EventFile, unpaired_and_duplicate_spans_are_named) {
  EXPECT_EQ(codes_of({kHeader, rec(0, 10, R"("span_begin","span_id":"a","parent_id":null)"),
                      rec(1, 11, R"("span_end","span_id":"z")"), trailer(2)}),
            std::set<std::string>{"events.unpaired"});
  EXPECT_EQ(codes_of({kHeader, rec(0, 10, R"("span_begin","span_id":"a","parent_id":null)"),
                      rec(1, 11, R"("span_begin","span_id":"a","parent_id":null)"),
                      rec(2, 12, R"("span_end","span_id":"a")"), trailer(3)}),
            std::set<std::string>{"events.duplicate_span"});
}

TEST(EventFile, a_gap_in_a_stream_and_a_line_after_the_trailer_are_found) {
  EXPECT_EQ(codes_of({kHeader, rec(0, 10, R"("canary")"), rec(2, 11, R"("canary")"), trailer(2)}),
            std::set<std::string>{"events.gap"});
  EXPECT_EQ(codes_of({kHeader, rec(0, 10, R"("canary")"), trailer(1), rec(1, 11, R"("canary")")}),
            std::set<std::string>{"events.after_trailer"});
}

TEST(EventFile, streams_are_per_thread_and_unknown_types_are_skipped) {
  test::TempDir dir;
  const auto path = dir.write("f.events.jsonl", kHeader + "\n" + rec(0, 50, R"("canary")", 7) +
                                                    "\n" + rec(0, 10, R"("from_the_future")", 8) +
                                                    "\n" + trailer(2) + "\n");
  const auto report = check_event_file(path, EventContext{"r1", "b", {{7, 100}}});
  EXPECT_TRUE(report.ok());
  EXPECT_EQ(report.unknown_types, 1u);
  EXPECT_EQ(report.records, 2u);
}

TEST(EventFile, an_overflow_marker_and_a_wrong_run_are_problems) {
  std::string other_run = kHeader;
  other_run.replace(other_run.find("\"r1\""), 4, "\"r9\"");
  EXPECT_EQ(codes_of({other_run, rec(0, 10, R"("overflow")"), trailer(1)}),
            (std::set<std::string>{"events.wrong_run", "events.overflow"}));
}

}  // namespace
}  // namespace jbench
