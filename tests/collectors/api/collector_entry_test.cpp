#include "jbench/collectors/api/collector_entry.h"

#include <gtest/gtest.h>

#include "jbench/collectors/api/phases.h"

namespace jbench::collectors {
namespace {

CollectorEntry healthy(std::uint64_t records) {
  CollectorEntry e;
  e.name = "syscall";
  e.backend = "bpftrace";
  e.started_ns = 1;
  e.attached_ns = 2;
  e.attach_verified = true;
  e.canaries_seen = {0, 1, 2};
  e.ended = Ended::exit(0);
  e.records = records;
  return e;
}

TEST(CollectorStatus, ProvenAndCleanIsOkOrNoEventsObserved) {
  auto e = healthy(5);
  finish(e, 3);
  EXPECT_EQ(e.status, kOk);
  auto quiet = healthy(0);
  finish(quiet, 3);
  EXPECT_EQ(quiet.status, kNoEventsObserved);
  EXPECT_FALSE(quiet.reason.empty());
}

TEST(CollectorStatus, EveryUnprovenOrUncleanFactFailsWithItsOwnReason) {
  struct Case {
    const char* what;
    void (*spoil)(CollectorEntry&);
    const char* reason_part;
  };
  const Case cases[] = {
      {"canary missing",
       [](CollectorEntry& e) {
         e.canaries_seen = {0, 2};
       },
       "worker(s) 1"},
      {"not verified", [](CollectorEntry& e) { e.attach_verified = false; }, "not verified"},
      {"never started", [](CollectorEntry& e) { e.started_ns.reset(); }, "never started"},
      {"never ended", [](CollectorEntry& e) { e.ended.reset(); }, "never ended"},
      {"killed", [](CollectorEntry& e) { e.ended = Ended::killed(9); }, "signal 9"},
      {"exit 1", [](CollectorEntry& e) { e.ended = Ended::exit(1); }, "code 1"},
      {"dropped", [](CollectorEntry& e) { e.dropped = 4; }, "4 event(s) were dropped"},
      {"malformed", [](CollectorEntry& e) { e.malformed = 2; }, "2 record(s) were malformed"},
      {"fault", [](CollectorEntry& e) { e.fail("output bound exceeded"); }, "output bound"},
  };
  for (const auto& c : cases) {
    for (std::uint64_t records : {0u, 7u}) {
      auto e = healthy(records);
      c.spoil(e);
      finish(e, 3);
      EXPECT_EQ(e.status, kCollectorFailed) << c.what;
      EXPECT_NE(e.reason.find(c.reason_part), std::string::npos) << c.what << ": " << e.reason;
    }
  }
}

TEST(CollectorStatus, TheFirstFaultIsTheReason) {
  auto e = healthy(1);
  e.fail("first");
  e.fail("second");
  finish(e, 3);
  EXPECT_EQ(e.reason, "first");
}

TEST(CollectorStatus, EntriesCarryTheLifecycleWithTimesAsStrings) {
  auto e = healthy(3);
  e.raw = {"raw/a.events.jsonl", "raw/b.events.jsonl"};
  finish(e, 3);
  const auto j = e.to_json();
  EXPECT_TRUE(j["lifecycle"]["started_ns"].is_string());
  EXPECT_EQ(j["lifecycle"]["canaries_seen"].size(), 3u);
  EXPECT_TRUE(j["raw"].is_array());
  EXPECT_EQ(j["lifecycle"]["ended"]["how"], "exit");
  const auto na = not_available("gc", "usdt-bridge", "why", "how to fix");
  EXPECT_EQ(na.to_json()["status"], kNotAvailable);
  EXPECT_EQ(na.to_json()["remediation"], "how to fix");
}

TEST(Phases, InstantsFallInTheirPhaseAndMissingBoundariesNeverStart) {
  const auto p = PhaseBoundaries::from_json(
      {{"warmup_start_ns", "100"}, {"measure_start_ns", "200"}, {"teardown_start_ns", "300"}});
  EXPECT_EQ(p.phase_at(0), "startup");
  EXPECT_EQ(p.phase_at(99), "startup");
  EXPECT_EQ(p.phase_at(100), "warmup");
  EXPECT_EQ(p.phase_at(250), "measure");
  EXPECT_EQ(p.phase_at(300), "teardown");
  const auto early = PhaseBoundaries::from_json({{"teardown_start_ns", "50"}});
  EXPECT_EQ(early.phase_at(10), "startup");
  EXPECT_EQ(early.phase_at(60), "teardown");  // failed before warmup: straight to teardown
}

}  // namespace
}  // namespace jbench::collectors
