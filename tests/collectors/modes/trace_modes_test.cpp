#include "jbench/collectors/modes/trace_modes.h"

#include <gtest/gtest.h>

#include <set>

namespace jbench::collectors {
namespace {

constexpr TraceMode kModes[] = {TraceMode::baseline, TraceMode::no_consumer, TraceMode::light,
                                TraceMode::full};

TEST(TraceModes, EveryModeListsTheSameCollectorsSoNoneIsEverLeftOut) {
  for (const char* kind : {"sqlite", "chez"}) {
    std::set<std::string> first;
    for (const auto& c : collectors_for(TraceMode::baseline, traits_of_kind(kind)))
      first.insert(c.name);
    for (auto mode : kModes) {
      std::set<std::string> names;
      for (const auto& c : collectors_for(mode, traits_of_kind(kind))) {
        EXPECT_TRUE(names.insert(c.name).second) << "listed twice: " << c.name;
        if (!c.requested) {
          EXPECT_FALSE(c.reason.empty()) << c.name << " has no reason";
        } else {
          EXPECT_FALSE(c.setting.empty()) << c.name;
        }
        EXPECT_FALSE(c.required && !c.requested) << c.name;
      }
      EXPECT_EQ(names, first);
    }
  }
}

TEST(TraceModes, BaselineAndNoConsumerRunOnlyTheKernelsAccounting) {
  for (auto mode : {TraceMode::baseline, TraceMode::no_consumer}) {
    for (const auto& c : collectors_for(mode, traits_of_kind("sqlite"))) {
      EXPECT_EQ(c.requested, c.name == "cpu") << c.name;
    }
  }
  EXPECT_EQ(bridge_mode_for(TraceMode::baseline), "off");
  EXPECT_EQ(bridge_mode_for(TraceMode::no_consumer), "no-consumer");
  EXPECT_EQ(alloc_mean_bytes_for(TraceMode::baseline), 0u);
  EXPECT_GT(alloc_mean_bytes_for(TraceMode::light), alloc_mean_bytes_for(TraceMode::full));
}

TEST(TraceModes, CountedRunsTheInstructionCounterAndTheKernelsAccountingOnly) {
  EXPECT_EQ(bridge_mode_for(TraceMode::counted), "off");
  for (const char* kind : {"sqlite", "chez"}) {
    for (const auto& c : collectors_for(TraceMode::counted, traits_of_kind(kind))) {
      const bool counts = c.name == "instructions" || c.name == "cpu";
      EXPECT_EQ(c.requested, counts) << c.name;
      EXPECT_EQ(c.required, counts) << c.name;
      if (!counts) {
        EXPECT_NE(c.reason.find("counted:"), std::string::npos) << c.reason;
      }
    }
  }
  for (auto mode :
       {TraceMode::baseline, TraceMode::no_consumer, TraceMode::light, TraceMode::full}) {
    for (const auto& c : collectors_for(mode, traits_of_kind("sqlite"))) {
      if (c.name == "instructions") {
        EXPECT_FALSE(c.requested) << trace_mode_name(mode);
      }
    }
  }
}

TEST(TraceModes, GcIsRequiredOnlyWhereTheTargetHasACollector) {
  for (auto mode : {TraceMode::light, TraceMode::full}) {
    for (const auto& c : collectors_for(mode, traits_of_kind("sqlite"))) {
      if (c.name == "gc") {
        EXPECT_FALSE(c.required);
        EXPECT_NE(c.reason.find("no GC"), std::string::npos) << c.reason;
      } else if (c.name != "instructions") {
        EXPECT_TRUE(c.required) << c.name;
      }
    }
    for (const auto& c : collectors_for(mode, traits_of_kind("chez"))) {
      EXPECT_EQ(c.required, c.name != "instructions") << c.name;
    }
  }
}

}  // namespace
}  // namespace jbench::collectors
