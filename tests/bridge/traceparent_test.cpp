// The parts of the C ABI that need no initialised bridge: the version, the traceparent parser,
// and mode off (never initialised in this process) costing nothing and returning nothing.
#include <gtest/gtest.h>

#include "jbench_bridge.h"

namespace {

TEST(BridgeAbi, VersionMatchesTheHeader) {
  EXPECT_EQ(jb_abi_version() >> 16, static_cast<uint32_t>(JB_ABI_VERSION_MAJOR));
  EXPECT_EQ(jb_abi_version() & 0xFFFF, static_cast<uint32_t>(JB_ABI_VERSION_MINOR));
}

TEST(BridgeTraceparent, ParsesTheParentId) {
  uint64_t span = 0;
  ASSERT_EQ(jb_traceparent_parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", &span),
            0);
  EXPECT_EQ(span, 0x00f067aa0ba902b7u);
}

TEST(BridgeTraceparent, RefusesWhatTheSpecRefuses) {
  uint64_t span = 7;
  for (const char* bad :
       {"",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0",      // short
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",     // uppercase
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",     // zero trace-id
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",     // zero parent-id
        "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",     // unknown version
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x"})  // trailing data
  {
    EXPECT_EQ(jb_traceparent_parse(bad, &span), -1) << bad;
  }
  EXPECT_EQ(jb_traceparent_parse(nullptr, &span), -1);
  EXPECT_EQ(span, 7u);  // untouched on failure
}

TEST(BridgeModeOff, EveryCallIsANoOp) {
  ASSERT_EQ(jb_mode(), JB_MODE_OFF);
  EXPECT_EQ(jb_span_begin("x", 0), 0u);
  jb_span_end(1);
  EXPECT_EQ(jb_context_capture(), 0u);
  char buf[JB_TRACEPARENT_LEN + 1] = "unchanged";
  EXPECT_EQ(jb_traceparent_format(1, buf, sizeof buf), -1);
  EXPECT_STREQ(buf, "");
  uint8_t id[16];
  jb_runtime_id(id);
  for (uint8_t b : id) EXPECT_EQ(b, 0);
}

}  // namespace
