// check_state on hand-made prefix states: which outcomes keep SQLite's promise and which do not.
#include "jbench/oracle/fault_check.h"

#include <gtest/gtest.h>

namespace jbench::oracle {
namespace {

const std::vector<std::string> kStates = {"s0", "s1", "s2", "s3"};

RunObservation seen(std::size_t acknowledged, std::string content, bool in_doubt = false) {
  RunObservation o;
  o.acknowledged = acknowledged;
  o.commit_in_doubt = in_doubt;
  o.integrity = "ok";
  o.content = std::move(content);
  return o;
}

TEST(FaultCheck, accepts_the_state_after_exactly_the_acknowledged_prefix) {
  StateCheck c = check_state(kStates, seen(2, "s2"));
  EXPECT_FALSE(c.finding.has_value()) << c.detail;
  EXPECT_EQ(c.matched_prefix, 2u);
}

TEST(FaultCheck, a_failed_commit_may_have_reached_its_commit_point_or_not) {
  EXPECT_FALSE(check_state(kStates, seen(1, "s1", true)).finding.has_value());
  EXPECT_FALSE(check_state(kStates, seen(1, "s2", true)).finding.has_value());
}

TEST(FaultCheck, reports_an_acknowledged_transaction_that_is_absent_as_committed_lost) {
  StateCheck c = check_state(kStates, seen(3, "s1"));
  ASSERT_EQ(c.finding, FaultFindingKind::committed_lost);
  EXPECT_EQ(c.transaction, 2u);  // the first lost one
  EXPECT_EQ(c.matched_prefix, 1u);
}

TEST(FaultCheck, reports_content_matching_no_prefix_as_partial_visible) {
  StateCheck c = check_state(kStates, seen(1, "s1 and half of s2"));
  ASSERT_EQ(c.finding, FaultFindingKind::partial_visible);
  EXPECT_EQ(c.transaction, 2u);
  EXPECT_FALSE(c.matched_prefix.has_value());
}

TEST(FaultCheck, reports_a_transaction_whose_commit_never_ran_as_uncommitted_visible) {
  StateCheck c = check_state(kStates, seen(1, "s2"));  // no COMMIT of transaction 2 was in flight
  ASSERT_EQ(c.finding, FaultFindingKind::uncommitted_visible);
  EXPECT_EQ(c.transaction, 2u);
  EXPECT_EQ(check_state(kStates, seen(1, "s3", true)).finding,
            FaultFindingKind::uncommitted_visible);
}

TEST(FaultCheck, integrity_and_reopen_failures_come_before_the_content) {
  RunObservation corrupt = seen(2, "s2");
  corrupt.integrity = "*** in database main ***\nPage 3 is never used";
  EXPECT_EQ(check_state(kStates, corrupt).finding, FaultFindingKind::integrity);
  RunObservation unreadable = seen(2, "s2");
  unreadable.reopened = false;
  unreadable.reopen_error = "open: disk I/O error";
  EXPECT_EQ(check_state(kStates, unreadable).finding, FaultFindingKind::reopen_failed);
}

}  // namespace
}  // namespace jbench::oracle
