// A trace mode is available here only when every collector it requires can attach, as the
// capability probe found. Fixtures: a real probe's document, and the same host with neither
// syscall backend usable.
#include "jbench/collectors/modes/mode_availability.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

namespace jbench::collectors {
namespace {

nlohmann::json capabilities(const std::string& name) {
  std::ifstream in(std::string(JBENCH_COLLECT_FIXTURES) + "/capabilities/" + name);
  return nlohmann::json::parse(in);
}

TEST(ModeAvailability, every_mode_is_available_where_a_syscall_backend_attaches) {
  const auto caps = capabilities("bpftrace-and-strace.json");
  for (auto mode :
       {TraceMode::baseline, TraceMode::no_consumer, TraceMode::light, TraceMode::full}) {
    const auto a = mode_availability(mode, traits_of_kind("sqlite"), caps, true);
    EXPECT_TRUE(a.available) << trace_mode_name(mode) << ": " << a.reason;
    EXPECT_TRUE(a.remediation.empty());
  }
}

TEST(ModeAvailability, light_and_full_are_not_available_without_a_syscall_backend_and_say_why) {
  const auto caps = capabilities("no-syscall-backend.json");
  EXPECT_TRUE(
      mode_availability(TraceMode::baseline, traits_of_kind("sqlite"), caps, true).available);
  EXPECT_TRUE(
      mode_availability(TraceMode::no_consumer, traits_of_kind("sqlite"), caps, true).available);
  for (auto mode : {TraceMode::light, TraceMode::full}) {
    const auto a = mode_availability(mode, traits_of_kind("chez"), caps, true);
    EXPECT_FALSE(a.available);
    EXPECT_NE(a.reason.find("syscall: no backend can attach here"), std::string::npos) << a.reason;
    EXPECT_NE(a.reason.find("neither bpftrace nor strace"), std::string::npos) << a.reason;
    EXPECT_EQ(a.remediation, "apt-get install bpftrace (or strace)");
  }
}

// Each traced mode reads its own choice: backends.syscall_light or backends.syscall_full.
TEST(ModeAvailability, each_traced_mode_reads_its_own_syscall_backend) {
  auto caps = capabilities("bpftrace-and-strace.json");
  caps["backends"]["syscall_full"] = {{"chosen", nullptr},
                                      {"why", "no backend for full here"},
                                      {"alternatives", nlohmann::json::array()}};
  EXPECT_TRUE(mode_availability(TraceMode::light, traits_of_kind("chez"), caps, true).available);
  const auto full = mode_availability(TraceMode::full, traits_of_kind("chez"), caps, true);
  EXPECT_FALSE(full.available);
  EXPECT_NE(full.reason.find("no backend for full here"), std::string::npos) << full.reason;
}

TEST(ModeAvailability, a_native_target_needs_the_allocation_sampler_built) {
  const auto caps = capabilities("bpftrace-and-strace.json");
  const auto a = mode_availability(TraceMode::light, traits_of_kind("sqlite"), caps, false);
  EXPECT_FALSE(a.available);
  EXPECT_NE(a.reason.find("libjbench_alloc.so"), std::string::npos) << a.reason;
  // A managed runtime samples its allocations through the bridge: no sampler needed.
  EXPECT_TRUE(mode_availability(TraceMode::light, traits_of_kind("chez"), caps, false).available);
}

}  // namespace
}  // namespace jbench::collectors
