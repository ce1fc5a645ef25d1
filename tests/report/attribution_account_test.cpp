// The cost account on hand-made records: the parts of every phase sum to its time, calls that
// cross a boundary are split, nested spans never add up to more than their parent, the bridge
// writer is apart, and processes outside the cohort are never counted.
#include <gtest/gtest.h>

#include "jbench/attribution/account.h"

namespace jbench::attribution {
namespace {

constexpr IncarnationId kWorker{100, 7};

RunAccount one_worker(CallDetail detail) {
  RunAccount run;
  run.id = "w1.r1";
  run.detail = detail;
  Incarnation inc;
  inc.pid = kWorker.pid;
  inc.start_time_ticks = kWorker.start_time_ticks;
  run.incarnations.push_back(inc);
  return run;
}

// startup [0,100) warmup [100,200) measure [200,1200) teardown [1200,1300)
PhaseWindows windows() {
  PhaseWindows w;
  w.begin = {0, 100, 200, 1200};
  w.end = {100, 200, 1200, 1300};
  return w;
}

CallRecord call(std::string_view name, std::uint64_t t, std::uint64_t d, std::int64_t tid = 100,
                IncarnationId who = kWorker) {
  CallRecord c;
  c.who = who;
  c.tid = tid;
  c.call = name;
  c.path = "db.sqlite-wal";
  c.t_ns = t;
  c.duration_ns = d;
  return c;
}

void expect_parts_sum_to_the_phase(const RunAccount& a) {
  for (const auto& inc : a.incarnations) {
    for (const auto& p : inc.phases) {
      EXPECT_EQ(p.syscall_ns() + p.gc_ns + p.in_span_ns() + p.rest_ns(), p.thread_ns());
    }
  }
}

TEST(AttributionAccount, a_call_crossing_a_boundary_counts_once_and_its_time_where_it_was) {
  AccountBuilder b(one_worker(CallDetail::full), {windows()});
  b.seal_spans();
  b.add_call(call("fdatasync", 1100, 200));  // 100 in measure, 100 in teardown
  const RunAccount a = b.finish();
  ASSERT_TRUE(a.problems.empty());
  const auto& measure = a.incarnations[0].phases[2];
  const auto& teardown = a.incarnations[0].phases[3];
  const CallKey key{"fdatasync", "db.sqlite-wal", ""};
  EXPECT_EQ(measure.calls.at(key).ns, 100u);
  EXPECT_EQ(measure.calls.at(key).count, 1u);
  EXPECT_EQ(teardown.calls.at(key).ns, 100u);
  EXPECT_EQ(teardown.calls.at(key).count, 0u);
  expect_parts_sum_to_the_phase(a);
}

TEST(AttributionAccount, nested_spans_self_times_add_up_to_the_parent_total) {
  AccountBuilder b(one_worker(CallDetail::full), {windows()});
  b.add_span_begin(kWorker, 100, "a", "transaction:write", 300);
  b.add_span_begin(kWorker, 100, "b", "statement:insert", 350);
  b.add_span_end(kWorker, 100, "b", 450);
  b.add_span_begin(kWorker, 100, "c", "statement:update", 500);
  b.add_span_end(kWorker, 100, "c", 520);
  b.add_span_end(kWorker, 100, "a", 700);
  b.seal_spans();
  b.add_call(call("pwrite64", 360, 40));   // inside the insert
  b.add_call(call("fdatasync", 600, 50));  // in the transaction itself
  const RunAccount a = b.finish();
  const auto& spans = a.incarnations[0].phases[2].spans;
  const auto& tx = spans.at("transaction:write");
  const auto& ins = spans.at("statement:insert");
  const auto& upd = spans.at("statement:update");
  EXPECT_EQ(tx.total_ns, 400u);
  EXPECT_EQ(ins.total_ns, 100u);
  EXPECT_EQ(upd.total_ns, 20u);
  EXPECT_EQ(tx.self_ns + ins.self_ns + upd.self_ns, tx.total_ns);
  EXPECT_LE(ins.total_ns + upd.total_ns, tx.total_ns);
  EXPECT_EQ(ins.syscall_ns, 40u);
  EXPECT_EQ(tx.syscall_ns, 50u);
  expect_parts_sum_to_the_phase(a);
}

TEST(AttributionAccount, full_detail_names_the_time_outside_calls_by_the_innermost_span) {
  AccountBuilder b(one_worker(CallDetail::full), {windows()});
  b.add_span_begin(kWorker, 100, "a", "transaction:write", 300);
  b.add_span_begin(kWorker, 100, "b", "statement:insert", 350);
  b.add_span_end(kWorker, 100, "b", 450);
  b.add_span_end(kWorker, 100, "a", 700);
  b.seal_spans();
  b.add_call(call("pwrite64", 360, 40));   // inside the insert
  b.add_call(call("fdatasync", 600, 50));  // in the transaction itself
  b.add_call(call("read", 800, 100));      // outside every span
  const RunAccount a = b.finish();
  ASSERT_TRUE(a.problems.empty());
  const auto& measure = a.incarnations[0].phases[2];
  // The transaction's self time (400 less the insert's 100) less its own call; the insert's 100
  // less the call inside it. What is outside every span and call stays the rest.
  EXPECT_EQ(measure.in_span.at("transaction:write"), 250u);
  EXPECT_EQ(measure.in_span.at("statement:insert"), 60u);
  EXPECT_EQ(measure.rest_ns(), 1000u - 400u - 100u);
  expect_parts_sum_to_the_phase(a);
}

TEST(AttributionAccount, spans_never_take_more_than_the_time_the_calls_left) {
  AccountBuilder b(one_worker(CallDetail::full), {windows()});
  b.add_span_begin(kWorker, 100, "a", "statement:scan", 200);
  b.add_span_end(kWorker, 100, "a", 1200);
  b.seal_spans();
  // Entered in warmup, before the span: its 1000 ns of measure are in no span's calls, and the
  // span's self time alone would exceed what is left.
  b.add_call(call("fdatasync", 150, 1050));
  const RunAccount a = b.finish();
  ASSERT_TRUE(a.problems.empty());
  const auto& measure = a.incarnations[0].phases[2];
  EXPECT_EQ(measure.syscall_ns(), 1000u);
  EXPECT_EQ(measure.in_span_ns(), 0u);
  EXPECT_EQ(measure.rest_ns(), 0u);
  expect_parts_sum_to_the_phase(a);
}

TEST(AttributionAccount, light_detail_leaves_span_time_in_the_rest) {
  AccountBuilder b(one_worker(CallDetail::light), {windows()});
  b.add_span_begin(kWorker, 100, "a", "statement:scan", 300);
  b.add_span_end(kWorker, 100, "a", 700);
  b.seal_spans();
  // Light totals cannot say which span a call was in: no span part.
  b.add_light({kWorker, Phase::measure, false, "pread64", 10, 200, 20, {}});
  const RunAccount a = b.finish();
  const auto& measure = a.incarnations[0].phases[2];
  EXPECT_TRUE(measure.in_span.empty());
  EXPECT_EQ(measure.rest_ns(), 800u);
  expect_parts_sum_to_the_phase(a);
}

TEST(AttributionAccount, the_bridge_writer_is_apart_and_strangers_are_not_counted) {
  AccountBuilder b(one_worker(CallDetail::full), {windows()});
  b.seal_spans();
  CallRecord writer = call("write", 300, 30, 101);
  writer.bridge_writer = true;
  b.add_call(writer);
  b.add_call(call("fdatasync", 400, 900, 555, {555, 1}));  // same calls, unregistered process
  const RunAccount a = b.finish();
  const auto& measure = a.incarnations[0].phases[2];
  EXPECT_TRUE(measure.calls.empty());
  EXPECT_EQ(measure.writer_calls.ns, 30u);
  EXPECT_EQ(measure.rest_ns(), measure.wall_ns);
  ASSERT_EQ(a.notes.size(), 1u);
  EXPECT_NE(a.notes[0].find("outside the run's cohort"), std::string::npos);
}

TEST(AttributionAccount, gc_pauses_exclude_the_traced_calls_inside_them) {
  AccountBuilder b(one_worker(CallDetail::full), {windows()});
  b.add_gc(kWorker, 100, true, 300);
  b.add_gc(kWorker, 100, false, 500);
  b.seal_spans();
  b.add_call(call("munmap", 350, 50));
  const RunAccount a = b.finish();
  const auto& measure = a.incarnations[0].phases[2];
  EXPECT_EQ(measure.gc_ns, 150u);
  EXPECT_EQ(measure.gc_pauses, 1u);
  EXPECT_EQ(measure.syscall_ns(), 50u);
  expect_parts_sum_to_the_phase(a);
}

TEST(AttributionAccount, light_totals_with_each_requests_time_are_a_part_per_request) {
  AccountBuilder b(one_worker(CallDetail::light), {windows()});
  b.seal_spans();
  LightTotal blocked{kWorker, Phase::measure, false, "off-cpu:blocked", 5, 300, 100, {}};
  blocked.requests = {{"clock_nanosleep", 3, 240}, {"futex", 2, 60}};
  b.add_light(blocked);
  LightTotal fcntl{kWorker, Phase::measure, false, "fcntl", 4, 40, 20, {}};
  fcntl.requests = {{"F_SETLK", 3, std::nullopt}, {"F_GETLK", 1, std::nullopt}};  // bpftrace's
  b.add_light(fcntl);
  const RunAccount a = b.finish();
  const auto& calls = a.incarnations[0].phases[2].calls;
  EXPECT_EQ(calls.at({"off-cpu:blocked", "", "clock_nanosleep"}).ns, 240u);
  EXPECT_EQ(calls.at({"off-cpu:blocked", "", "clock_nanosleep"}).count, 3u);
  EXPECT_EQ(calls.at({"off-cpu:blocked", "", "futex"}).ns, 60u);
  EXPECT_EQ(calls.at({"fcntl", "", "F_SETLK,F_GETLK"}).ns, 40u);
  EXPECT_EQ(CallKey({"off-cpu:blocked", "", "futex"}).label(), "blocked in futex (off the CPU)");
  expect_parts_sum_to_the_phase(a);
}

TEST(AttributionAccount, a_wait_that_ended_with_a_wake_up_names_who_woke_it_in_the_runs_words) {
  RunAccount run = one_worker(CallDetail::full);
  run.incarnations[0].parent_pid = 50;
  Incarnation other;
  other.worker = 1;
  other.pid = 200;
  other.start_time_ticks = 9;
  other.parent_pid = 50;
  run.incarnations.push_back(other);
  AccountBuilder b(std::move(run), {windows(), windows()});
  b.seal_spans();
  const auto woken = [](CallRecord c, std::string_view how, std::int64_t pid, std::int64_t tid) {
    c.woken_by = how;
    c.waker_pid = pid;
    c.waker_tid = tid;
    return c;
  };
  CallRecord flock = call("flock", 300, 200);
  flock.path = "db.lock";
  flock.request = "LOCK_EX";
  b.add_call(woken(flock, "task", 200, 201));                        // the other worker released it
  b.add_call(woken(call("fdatasync", 600, 50), "interrupt", 0, 0));  // the disk finished
  b.add_call(woken(call("read", 700, 30), "task", 50, 50));          // the harness's next command
  b.add_call(woken(call("futex", 800, 10), "task", 100, 102));       // another of its threads
  b.add_call(woken(call("pwrite64", 900, 10), "task", 777, 777));    // a stranger
  b.add_call(call("pread64", 950, 10));                              // never slept
  const RunAccount a = b.finish();
  const auto& w = a.incarnations[0].phases[2].woken;
  EXPECT_EQ(w.at({"flock LOCK_EX on db.lock", "worker 1"}), 200u);
  EXPECT_EQ(w.at({"fdatasync on db.sqlite-wal", "an interrupt (a device, a timer, a softirq)"}),
            50u);
  EXPECT_EQ(w.at({"read on db.sqlite-wal", "the harness (jbench)"}), 30u);
  EXPECT_EQ(w.at({"futex on db.sqlite-wal", "another thread of its process"}), 10u);
  EXPECT_EQ(w.at({"pwrite64 on db.sqlite-wal", "a process outside the run (pid 777)"}), 10u);
  EXPECT_EQ(w.size(), 5u);
  expect_parts_sum_to_the_phase(a);
}

TEST(AttributionAccount, light_excess_within_the_crossing_bound_is_taken_from_the_longest_call) {
  AccountBuilder b(one_worker(CallDetail::light), {windows()});
  b.seal_spans();
  b.add_light({kWorker, Phase::warmup, false, "read", 1, 150, 150, {}});  // warmup is 100 long
  const RunAccount a = b.finish();
  ASSERT_TRUE(a.problems.empty());
  const auto& warmup = a.incarnations[0].phases[1];
  EXPECT_EQ(warmup.clamped_ns, 50u);
  EXPECT_EQ(warmup.syscall_ns(), 100u);
  expect_parts_sum_to_the_phase(a);
}

TEST(AttributionAccount, light_protocol_waits_outside_the_workers_window_are_taken_out_of_read) {
  RunAccount run = one_worker(CallDetail::light);
  run.incarnations[0].phases[2].own_window_ns = 600;  // the harness's measure phase is 1000 long
  AccountBuilder b(std::move(run), {windows()});
  b.seal_spans();
  b.add_light({kWorker, Phase::measure, false, "read", 2, 500, 450, {}});
  b.add_light({kWorker, Phase::measure, false, "pwrite64", 10, 300, 40, {}});
  const RunAccount a = b.finish();
  ASSERT_TRUE(a.problems.empty()) << a.problems.front();
  const auto& measure = a.incarnations[0].phases[2];
  EXPECT_EQ(measure.wall_ns, 600u);  // the worker's own window, as in full detail
  EXPECT_EQ(measure.protocol_ns, 400u);
  EXPECT_EQ(measure.calls.at(CallKey{"read", "", ""}).ns, 100u);
  EXPECT_EQ(measure.calls.at(CallKey{"pwrite64", "", ""}).ns, 300u);
  expect_parts_sum_to_the_phase(a);
}

TEST(AttributionAccount, parts_beyond_the_phase_time_refuse_the_account) {
  AccountBuilder b(one_worker(CallDetail::full), {windows()});
  b.seal_spans();
  b.add_call(call("read", 300, 800, 100));
  b.add_call(call("read", 300, 800, 100));  // the same thread cannot be in two calls at once
  const RunAccount a = b.finish();
  ASSERT_EQ(a.problems.size(), 1u);
  EXPECT_NE(a.problems[0].find("the inputs disagree"), std::string::npos);
}

}  // namespace
}  // namespace jbench::attribution
