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

// A writer that drains several threads cannot order their records by cause, so the file only
// has to show each span's ancestry by its end: a parent that never begins, or parents that loop,
// leave a span without a root — an orphan.
TEST(EventFile, parents_that_form_a_cycle_make_orphans) {
  EXPECT_EQ(codes_of({kHeader, rec(0, 10, R"("span_begin","span_id":"a","parent_id":"b")"),
                      rec(1, 11, R"("span_begin","span_id":"b","parent_id":"a")"),
                      rec(2, 12, R"("span_end","span_id":"b")"),
                      rec(3, 13, R"("span_end","span_id":"a")"), trailer(4)}),
            std::set<std::string>{"events.orphan_span"});
  EXPECT_EQ(codes_of({kHeader, rec(0, 10, R"("span_begin","span_id":"a","parent_id":"a")"),
                      rec(1, 11, R"("span_end","span_id":"a")"), trailer(2)}),
            std::set<std::string>{"events.orphan_span"});
}

TEST(EventFile, a_parent_that_never_begins_makes_an_orphan_wherever_it_is_named) {
  EXPECT_EQ(codes_of({kHeader, rec(0, 10, R"("span_begin","span_id":"a","parent_id":"zz")"),
                      rec(1, 11, R"("span_end","span_id":"a")"), trailer(2)}),
            std::set<std::string>{"events.orphan_span"});
  // A chain under the missing parent is one finding, not one per descendant.
  test::TempDir dir;
  const auto path =
      dir.write("f.events.jsonl",
                kHeader + "\n" + rec(0, 10, R"("span_begin","span_id":"b","parent_id":"a")") +
                    "\n" + rec(1, 11, R"("span_begin","span_id":"a","parent_id":"zz")") + "\n" +
                    rec(2, 12, R"("span_end","span_id":"a")") + "\n" +
                    rec(3, 13, R"("span_end","span_id":"b")") + "\n" + trailer(4) + "\n");
  const auto report = check_event_file(path, EventContext{"r1", "b", {{7, 100}}});
  ASSERT_EQ(report.problems.size(), 1u);
  EXPECT_EQ(report.problems[0].code, "events.orphan_span");
  EXPECT_EQ(report.problems[0].line, 3u);  // the span that names the missing parent
}

// Streams are drained one after another: a child begun on another thread (or a span ended on
// another thread) may be written before its parent's begin.
TEST(EventFile, a_child_or_an_end_may_come_before_the_begin_it_follows) {
  EXPECT_EQ(codes_of({kHeader, rec(0, 20, R"("span_begin","span_id":"c","parent_id":"p")", 8),
                      rec(1, 21, R"("span_end","span_id":"p")", 8),
                      rec(2, 22, R"("span_end","span_id":"c")", 8),
                      rec(0, 10, R"("span_begin","span_id":"p","parent_id":null)", 7), trailer(4)}),
            std::set<std::string>{});
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
