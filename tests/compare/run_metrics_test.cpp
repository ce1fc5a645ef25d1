// A run's metrics from its summary and the collectors its run.json says ran cleanly
// (overhead_report::clean_collectors): a counter comes only from a collector that ran cleanly, so
// "not requested", "failed" and "lost records" give no value while a clean collector that saw
// nothing gives a measured 0. Hand-made documents: the failure paths real runs rarely take (the
// real traced runs are in compare_counters_test.cpp).
#include <gtest/gtest.h>

#include "jbench/compare/metrics.h"
#include "jbench/overhead_report/bundle_runs.h"
#include "jbench/run_summaries/project_counters.h"

namespace jbench::compare {
namespace {

using Json = nlohmann::json;

// The summary as the bundle model reads it (jbench/model/summary.h); a document it refuses fails
// the test.
model::Summary typed(const Json& summary) {
  auto read = model::read_summary(summary, "summary.json");
  EXPECT_TRUE(read) << read.error().message;
  return read ? std::move(*read) : model::Summary{};
}

Json summary() {
  return Json::parse(R"({
    "throughput_ops_per_s": 1000, "measure": {"operations": 200},
    "latency": {"all_operations": {"p50_ns": "900", "p99_ns": "4000"}},
    "collectors": {
      "cpu": {"incarnations": [
          {"phases": {"measure": {"cpu_ns": "100000", "voluntary_switches": 30,
                                  "involuntary_switches": 10}}},
          {"phases": {"measure": {"cpu_ns": "300000", "voluntary_switches": 60,
                                  "involuntary_switches": 0}}}]},
      "syscall": {"incarnations": [{"phases": {"measure": {
          "fdatasync": {"count": 150}, "fsync": {"count": 50}, "pwrite64": {"count": 200},
          "off-cpu:blocked": {"count": 70}, "off-cpu:runnable": {"count": 30}}}}]},
      "gc": {"cells": [{"phase": "warmup", "collections": 9, "pause_total_ns": "9"},
                       {"phase": "measure", "collections": 4, "pause_total_ns": "8000"}]}}})");
}

// What overhead_report::clean_collectors makes of a run.json's collectors, typed as the bundle
// model reads them: a word that is no status (as "failed") is none; a run.json of another shape has
// no collectors (the model refuses to read it).
std::set<std::string> clean(const Json& run) {
  model::RunDocument doc;
  const Json collectors = run.value("/trace_mode/collectors"_json_pointer, Json::array());
  if (collectors.is_array()) {
    for (const Json& c : collectors) {
      model::CollectorEntry entry;
      entry.name = c["name"];
      entry.status = collectors::status_from_word(c["status"].get<std::string>());
      entry.dropped = c["dropped"].get<std::uint64_t>();
      doc.collectors.push_back(entry);
    }
  }
  return overhead_report::clean_collectors(doc);
}

Json run_with(const std::string& syscall_status, int dropped) {
  return {{"trace_mode",
           {{"collectors",
             {{{"name", "cpu"}, {"status", "ok"}, {"dropped", 0}},
              {{"name", "syscall"}, {"status", syscall_status}, {"dropped", dropped}},
              {{"name", "gc"}, {"status", "ok"}, {"dropped", 0}}}}}}};
}

TEST(RunMetrics, clean_collectors_give_counters_per_measured_operation) {
  auto m = run_metrics(typed(summary()), clean(run_with("ok", 0)));
  EXPECT_DOUBLE_EQ(m.at("throughput_ops_per_s"), 1000);
  EXPECT_DOUBLE_EQ(m.at("p50_ns"), 900);          // exact nanoseconds kept as a decimal string
  EXPECT_DOUBLE_EQ(m.at("cpu_ns_per_op"), 2000);  // both incarnations, measure phase only
  EXPECT_DOUBLE_EQ(m.at("context_switches_per_op"), 0.5);  // (30 + 10 + 60 + 0) / 200
  EXPECT_DOUBLE_EQ(m.at("fsyncs_per_op"), 1.0);
  EXPECT_DOUBLE_EQ(m.at("traced_syscalls_per_op"), 2.0);  // calls only: off-CPU intervals are not
  // Each call by name, and no off-CPU interval among them.
  EXPECT_DOUBLE_EQ(m.at("syscall:fdatasync_per_op"), 0.75);
  EXPECT_DOUBLE_EQ(m.at("syscall:fsync_per_op"), 0.25);
  EXPECT_DOUBLE_EQ(m.at("syscall:pwrite64_per_op"), 1.0);
  for (const auto& [metric, value] : m) {
    EXPECT_EQ(metric.find("off-cpu"), std::string::npos) << metric;
  }
  EXPECT_DOUBLE_EQ(m.at("gc_collections_per_op"), 0.02);  // warmup's collections left out
  EXPECT_DOUBLE_EQ(m.at("gc_pause_ns_per_op"), 40);
}

// Page faults and the bytes of read- and write-family calls: summed over the incarnations, and
// no value at all when one incarnation's are unknown (its /proc/<pid>/io unreadable) or when the
// readings predate them — never the part passed off as the whole.
TEST(RunMetrics, faults_and_bytes_per_operation_only_when_every_incarnation_has_them) {
  Json s = summary();
  auto& incarnations = s["collectors"]["cpu"]["incarnations"];
  const auto add = [](Json& inc, int minor, int major, const char* read, const char* written) {
    Json& measure = inc["phases"]["measure"];
    measure["minor_faults"] = minor;
    measure["major_faults"] = major;
    measure["read_chars"] = read;
    measure["written_chars"] = written;
  };
  EXPECT_FALSE(run_metrics(typed(s), clean(run_with("ok", 0))).count("bytes_read_per_op"));
  add(incarnations[0], 300, 100, "2000", "40000");
  add(incarnations[1], 100, 0, "6000", "0");
  auto m = run_metrics(typed(s), clean(run_with("ok", 0)));
  EXPECT_DOUBLE_EQ(m.at("page_faults_per_op"), 2.5);  // (300 + 100 + 100 + 0) / 200
  EXPECT_DOUBLE_EQ(m.at("bytes_read_per_op"), 40);
  EXPECT_DOUBLE_EQ(m.at("bytes_written_per_op"), 200);
  incarnations[1]["phases"]["measure"]["written_chars"] = nullptr;
  m = run_metrics(typed(s), clean(run_with("ok", 0)));
  EXPECT_FALSE(m.count("bytes_written_per_op"));
  EXPECT_TRUE(m.count("bytes_read_per_op"));
  // An incarnation that had no measure phase (it ended before) takes no part.
  incarnations[1]["phases"].erase("measure");
  m = run_metrics(typed(s), clean(run_with("ok", 0)));
  EXPECT_DOUBLE_EQ(m.at("bytes_written_per_op"), 200);
}

TEST(RunMetrics, a_collector_not_requested_failed_or_lossy_gives_no_value_not_zero) {
  for (auto [status, dropped] : {std::pair{"not_requested", 0}, std::pair{"failed", 0},
                                 std::pair{"not_available", 0}, std::pair{"ok", 3}}) {
    auto m = run_metrics(typed(summary()), clean(run_with(status, dropped)));
    EXPECT_FALSE(m.count("fsyncs_per_op")) << status << " dropped " << dropped;
    EXPECT_FALSE(m.count("traced_syscalls_per_op")) << status;
    EXPECT_TRUE(m.count("cpu_ns_per_op")) << status;
  }
  // No run.json at all: no collector is known to have run.
  auto m = run_metrics(typed(summary()), clean(Json::object()));
  EXPECT_FALSE(m.count("cpu_ns_per_op"));
  EXPECT_TRUE(m.count("throughput_ops_per_s"));
}

TEST(RunMetrics, a_counted_run_gives_its_instructions_and_never_its_times) {
  Json s = summary();
  s["collectors"]["instructions"] = Json::parse(R"({"incarnations": [
      {"phases": {"measure": {"instructions": "6000000"}}},
      {"phases": {"measure": {"instructions": "4000000"}}}]})");
  Json run = run_with("not_requested", 0);
  run["trace_mode"]["collectors"].push_back(
      {{"name", "instructions"}, {"status", "ok"}, {"dropped", 0}});
  auto m = run_metrics(typed(s), clean(run));
  EXPECT_DOUBLE_EQ(m.at("instructions_per_op"), 50000);  // both workers, per measured operation
  for (const char* timed :
       {"throughput_ops_per_s", "p50_ns", "p99_ns", "cpu_ns_per_op", "context_switches_per_op"}) {
    EXPECT_FALSE(m.count(timed)) << timed << ": the counting runtime's, not the program's";
  }
  // A count its collector did not prove is no value.
  run["trace_mode"]["collectors"].back()["status"] = "collector_failed";
  EXPECT_FALSE(run_metrics(typed(s), clean(run)).count("instructions_per_op"));
}

TEST(RunMetrics, a_counted_run_gives_its_allocation_calls_only_when_every_worker_counted_them) {
  Json s = summary();
  s["collectors"]["instructions"] = Json::parse(R"({"incarnations": [
      {"phases": {"measure": {"instructions": "6000000", "allocations": "1200"}}},
      {"phases": {"measure": {"instructions": "4000000", "allocations": "800"}}}]})");
  Json run = run_with("not_requested", 0);
  run["trace_mode"]["collectors"].push_back(
      {{"name", "instructions"}, {"status", "ok"}, {"dropped", 0}});
  EXPECT_DOUBLE_EQ(run_metrics(typed(s), clean(run)).at("allocations_per_op"), 10);
  // A record from before allocation calls were counted: the sum is unknown, not part of it.
  s["collectors"]["instructions"]["incarnations"][1]["phases"]["measure"].erase("allocations");
  const auto m = run_metrics(typed(s), clean(run));
  EXPECT_FALSE(m.count("allocations_per_op"));
  EXPECT_TRUE(m.count("instructions_per_op"));
}

TEST(RunMetrics, a_clean_collector_that_saw_nothing_gives_a_measured_zero) {
  Json s = summary();
  s["collectors"]["syscall"]["incarnations"][0]["phases"]["measure"] = Json::object();
  s["collectors"]["gc"]["cells"] = Json::array();
  auto m = run_metrics(typed(s), clean(run_with("ok", 0)));
  ASSERT_TRUE(m.count("fsyncs_per_op"));
  EXPECT_EQ(m.at("fsyncs_per_op"), 0);
  ASSERT_TRUE(m.count("gc_collections_per_op"));
  EXPECT_EQ(m.at("gc_collections_per_op"), 0);
}

TEST(RunMetrics, no_measured_operation_gives_no_per_operation_counter) {
  Json s = summary();
  s["measure"]["operations"] = 0;
  auto m = run_metrics(typed(s), clean(run_with("ok", 0)));
  EXPECT_FALSE(m.count("cpu_ns_per_op"));
  EXPECT_FALSE(m.count("fsyncs_per_op"));
  // Garbage in the documents is an error naming the field, never an exception.
  const auto garbage =
      model::read_summary(Json::parse(R"({"measure": "x", "collectors": [1]})"), "summary.json");
  ASSERT_FALSE(garbage);
  EXPECT_NE(garbage.error().message.find("summary.json /measure: expected an object"),
            std::string::npos)
      << garbage.error().message;
  EXPECT_NO_THROW(
      run_metrics(model::Summary{}, clean(Json::parse(R"({"trace_mode": {"collectors": 7}})"))));
}

TEST(RunMetrics, every_metric_has_a_direction_and_unknown_ones_are_guessed_from_their_unit) {
  EXPECT_TRUE(higher_is_better("throughput_ops_per_s"));
  EXPECT_FALSE(higher_is_better("fsyncs_per_op"));
  EXPECT_FALSE(higher_is_better("some_future_ns"));
  EXPECT_TRUE(higher_is_better("some_future_rate"));
  EXPECT_FALSE(higher_is_better("vm_steps_per_op"));
  EXPECT_FALSE(higher_is_better("instructions_per_op"));
  EXPECT_FALSE(higher_is_better("bytes_written_per_op"));
  EXPECT_EQ(all_metrics().size(), 15u);
  EXPECT_TRUE(is_counted_metric("instructions_per_op"));
  EXPECT_TRUE(is_counted_metric("allocations_per_op"));
  EXPECT_FALSE(is_counted_metric("cpu_ns_per_op"));
  EXPECT_FALSE(is_counted_metric("counter:bytes_allocated_per_op"));
}

TEST(RunMetrics, the_workers_own_vm_step_count_needs_no_collector) {
  Json s = summary();
  s["measure"]["vm_steps"] = 50000;
  // Even with no collector known to have run (a baseline's syscalls are not requested): the count
  // is the workload's, reported in its result.
  auto m = run_metrics(typed(s), clean(Json::object()));
  ASSERT_TRUE(m.count("vm_steps_per_op"));
  EXPECT_DOUBLE_EQ(m.at("vm_steps_per_op"), 250);
  // A worker that does not count them (the Chez worker) gives no value, not a zero.
  EXPECT_FALSE(run_metrics(typed(summary()), {}).count("vm_steps_per_op"));
}

}  // namespace
}  // namespace jbench::compare

namespace jbench::compare {
namespace {

// A run whose workers reported their own counters, and whose bridge recorded jb_counter values.
Json counted_summary() {
  return Json::parse(R"({
    "measure": {"operations": 200, "counters": {"bytes_copied": 12800, "misses": 0}},
    "collectors": {"counters": {"unit": "the counter's own", "cells": [
        {"pid": 1, "start_time_ticks": "7", "phase": "warmup", "name": "steps", "sum": 999},
        {"pid": 1, "start_time_ticks": "7", "phase": "measure", "name": "steps", "sum": 300},
        {"pid": 2, "start_time_ticks": "9", "phase": "measure", "name": "steps", "sum": 100},
        {"pid": 2, "start_time_ticks": "9", "phase": "measure", "name": "debt", "sum": -50}]}}})");
}

Json run_with_bridge(const std::string& status, int dropped) {
  return {{"trace_mode",
           {{"collectors", {{{"name", "bridge"}, {"status", status}, {"dropped", dropped}}}}}}};
}

TEST(RunMetrics, the_projects_own_counters_are_metrics_per_measured_operation) {
  auto m = run_metrics(typed(counted_summary()), clean(run_with_bridge("ok", 0)));
  EXPECT_DOUBLE_EQ(m.at("result:bytes_copied_per_op"), 64);
  EXPECT_DOUBLE_EQ(m.at("result:misses_per_op"), 0);  // reported as 0: a measured zero
  // Every incarnation's measure phase; the warmup's records left out; signed values kept.
  EXPECT_DOUBLE_EQ(m.at("counter:steps_per_op"), 2);
  EXPECT_DOUBLE_EQ(m.at("counter:debt_per_op"), -0.25);
}

TEST(RunMetrics, a_bridge_not_clean_gives_no_jb_counter_but_the_workers_own_stay) {
  for (auto [status, dropped] : {std::pair{"failed", 0}, std::pair{"ok", 2}}) {
    auto m = run_metrics(typed(counted_summary()), clean(run_with_bridge(status, dropped)));
    EXPECT_FALSE(m.count("counter:steps_per_op")) << status << " dropped " << dropped;
    EXPECT_TRUE(m.count("result:bytes_copied_per_op")) << status;
  }
}

TEST(RunMetrics, project_counters_are_named_and_ordered_after_jbenchs_own) {
  EXPECT_TRUE(run_summaries::is_project_counter("counter:steps_per_op"));
  EXPECT_TRUE(run_summaries::is_project_counter("result:bytes_copied_per_op"));
  EXPECT_FALSE(run_summaries::is_project_counter("counter:_per_op"));
  EXPECT_FALSE(run_summaries::is_project_counter("vm_steps_per_op"));
  EXPECT_FALSE(run_summaries::is_project_counter("counter:steps"));
  const std::set<std::string> seen = {"result:a_per_op", "p50_ns", "counter:b_per_op",
                                      "syscall:pread64_per_op"};
  const auto metrics = metrics_with_named_counters(seen);
  ASSERT_EQ(metrics.size(), all_metrics().size() + 3);
  EXPECT_EQ(metrics[all_metrics().size()].name, "syscall:pread64_per_op");  // calls first
  EXPECT_EQ(metrics[all_metrics().size() + 1].name, "counter:b_per_op");
  EXPECT_FALSE(metrics.back().higher_is_better);
  EXPECT_TRUE(is_call_count_metric("syscall:fsync_per_op"));
  EXPECT_FALSE(is_call_count_metric("syscall:_per_op"));
  EXPECT_FALSE(is_call_count_metric("syscall:fsync"));
  EXPECT_FALSE(is_call_count_metric("traced_syscalls_per_op"));
}

}  // namespace
}  // namespace jbench::compare
