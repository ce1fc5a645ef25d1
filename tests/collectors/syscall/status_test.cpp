// The status rule: one word per outcome, never collapsed, and a reason naming every failed fact.
#include "status.h"

#include <gtest/gtest.h>

namespace jbench::collectors::syscall_detail {
namespace {

SyscallFacts proven(std::uint64_t records) {
  SyscallFacts f;
  f.canaries_awaited = true;
  f.attach_verified = true;
  f.ended_known = true;
  f.records = records;
  return f;
}

bool mentions(const StatusDecision& d, const std::string& text) {
  return d.reason.find(text) != std::string::npos;
}

TEST(SyscallStatus, ProvenWithRecordsIsOkAndWithoutIsNoEventsObserved) {
  EXPECT_EQ(decide_status(proven(5)).status, Status::ok);
  const auto none = decide_status(proven(0));
  EXPECT_EQ(none.status, Status::no_events_observed);
  EXPECT_FALSE(none.reason.empty());
}

TEST(SyscallStatus, UnavailableWinsAndKeepsItsReason) {
  SyscallFacts f;
  f.unavailable = "bpftrace is not installed";
  const auto d = decide_status(f);
  EXPECT_EQ(d.status, Status::not_available);
  EXPECT_EQ(d.reason, "bpftrace is not installed");
}

TEST(SyscallStatus, EachFailedFactFailsTheCollectorWithItsOwnWords) {
  struct Case {
    const char* what;
    void (*spoil)(SyscallFacts&);
    const char* reason;
  };
  const Case cases[] = {
      {"did not start", [](SyscallFacts& f) { f.start_failure = "bpftrace did not attach"; },
       "bpftrace did not attach"},
      {"never awaited", [](SyscallFacts& f) { f.canaries_awaited = false; },
       "the canaries were never awaited"},
      {"canary missing",
       [](SyscallFacts& f) {
         f.attach_verified = false;
         f.missing_canaries = {1, 3};
       },
       "the canary of worker(s) 1, 3 was never seen"},
      {"died", [](SyscallFacts& f) { f.died_during_run = true; }, "ended during the run"},
      {"signal",
       [](SyscallFacts& f) {
         f.ended_by_signal = true;
         f.signal = 9;
       },
       "killed by signal 9"},
      {"exit code", [](SyscallFacts& f) { f.exit_code = 3; }, "exited with code 3"},
      {"unknown end", [](SyscallFacts& f) { f.ended_known = false; }, "end is unknown"},
      {"dropped", [](SyscallFacts& f) { f.dropped = 12; }, "12 event(s) were dropped"},
      {"malformed", [](SyscallFacts& f) { f.malformed = 2; }, "2 malformed line(s)"},
      {"bound",
       [](SyscallFacts& f) {
         f.over_bound = true;
         f.max_output_bytes = 100;
       },
       "exceeded its bound of 100 bytes"},
      {"problem", [](SyscallFacts& f) { f.problems = {"map full"}; }, "map full"},
  };
  for (const auto& c : cases) {
    for (std::uint64_t records : {0u, 7u}) {
      SyscallFacts f = proven(records);
      c.spoil(f);
      const auto d = decide_status(f);
      EXPECT_EQ(d.status, Status::collector_failed) << c.what;
      EXPECT_TRUE(mentions(d, c.reason)) << c.what << ": " << d.reason;
    }
  }
}

TEST(SyscallStatus, EveryFailedFactIsNamedNotOnlyTheFirst) {
  SyscallFacts f = proven(3);
  f.dropped = 4;
  f.malformed = 1;
  f.ended_by_signal = true;
  f.signal = 2;
  const auto d = decide_status(f);
  EXPECT_EQ(d.status, Status::collector_failed);
  EXPECT_TRUE(mentions(d, "signal 2") && mentions(d, "4 event(s)") && mentions(d, "1 malformed"))
      << d.reason;
}

}  // namespace
}  // namespace jbench::collectors::syscall_detail
