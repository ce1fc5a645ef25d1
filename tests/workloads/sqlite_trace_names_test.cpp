// What the worker hands the trace bridge, checked without a process: span names are the plan
// classes the worker reports (so a reader can join the two), fit the bridge's name limit, and
// never depend on anything but constants; and while the bridge is off (this process never
// starts it) the hello's runtime_id is a fresh getrandom id.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

#include "jbench/sqlite_workload/identity.h"
#include "jbench/sqlite_workload/queries.h"
#include "jbench/sqlite_workload/trace.h"
#include "jbench_bridge.h"

namespace jbench::sqlite_workload {
namespace {

TEST(SqliteTraceNames, StatementSpansAreNamedAfterTheirPlanClass) {
  std::set<std::string> names;
  for (std::size_t i = 0; i < kOpTypeCount; ++i) {
    const auto type = static_cast<OpType>(i);
    EXPECT_EQ(std::string(trace::statement_span(type)),
              "statement:" + std::string(plan_class(type)))
        << to_string(type);
    names.insert(trace::statement_span(type));
  }
  EXPECT_EQ(names.size(), kOpTypeCount);  // one class per type: a span name is unambiguous
  EXPECT_EQ(plan_class(OpType::scalar_correlated), "correlated_scalar_subquery");
  EXPECT_EQ(plan_class(OpType::scalar_uncorrelated), "uncorrelated_scalar_subquery");
}

// The bridge keeps JB_NAME_MAX - 1 bytes of a name: a longer one would be cut and two classes
// could read alike.
TEST(SqliteTraceNames, EveryNameFitsTheBridgeLimit) {
  std::vector<std::string> names = {trace::kConnectionOpenStartup,   trace::kConnectionOpenSteady,
                                    trace::kConnectionCloseStartup,  trace::kConnectionCloseSteady,
                                    trace::kConnectionCloseTeardown, trace::transaction_span(true),
                                    trace::transaction_span(false)};
  for (std::size_t i = 0; i < kOpTypeCount; ++i) {
    names.emplace_back(trace::statement_span(static_cast<OpType>(i)));
  }
  for (const auto& name : names) EXPECT_LT(name.size(), std::size_t{JB_NAME_MAX}) << name;
  EXPECT_EQ(std::string(trace::transaction_span(true)), "transaction:write");
  EXPECT_EQ(std::string(trace::transaction_span(false)), "transaction:read");
}

TEST(SqliteWorkerIdentity, IsAFreshRandomIdWhileTheBridgeIsOff) {
  ASSERT_EQ(jb_mode(), JB_MODE_OFF);
  EXPECT_EQ(trace::bridge_mode_name(), "off");
  const auto a = worker_runtime_id();
  const auto b = worker_runtime_id();
  ASSERT_TRUE(a && b);
  EXPECT_TRUE(std::regex_match(*a, std::regex("[0-9a-f]{32}"))) << *a;
  EXPECT_NE(*a, *b);  // 128 random bits each
}

}  // namespace
}  // namespace jbench::sqlite_workload
