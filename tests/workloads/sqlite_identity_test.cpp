// The runtime_id the worker announces in hello while the trace bridge is on: the bridge's own id,
// so the bridge's records (whose traceparents carry it) and the registered incarnation agree.
// This executable starts the bridge (no-consumer: no file) and so has only this test; the
// bridge-off case is in sqlite_trace_names_test.cpp, whose process never starts it.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "jbench/sqlite_workload/identity.h"
#include "jbench/sqlite_workload/trace.h"
#include "jbench_bridge.h"

namespace jbench::sqlite_workload {
namespace {

TEST(SqliteWorkerIdentity, IsTheBridgeRuntimeIdWhileTheBridgeIsOn) {
  ASSERT_EQ(setenv("JBENCH_BRIDGE_MODE", "no-consumer", 1), 0);
  ASSERT_EQ(trace::start_bridge(), std::nullopt);
  ASSERT_EQ(trace::bridge_mode_name(), "no-consumer");
  std::array<std::uint8_t, 16> id{};
  jb_runtime_id(id.data());
  char hex[33] = {};
  for (std::size_t i = 0; i < id.size(); ++i) std::snprintf(hex + 2 * i, 3, "%02x", id[i]);
  EXPECT_NE(std::string(hex), std::string(32, '0'));
  EXPECT_EQ(worker_runtime_id(), std::string(hex));
  jb_shutdown();
}

}  // namespace
}  // namespace jbench::sqlite_workload
