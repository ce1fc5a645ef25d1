// USDT probe sites for DTrace's pid provider (jbench/probes/usdt_dtrace.h), pure: each stapsdt
// argument form read as the D expression of its register or memory, typed by its size and sign;
// a site placed in the function that covers it, at its offset; what cannot be read or placed is
// a problem, never a guess. (tests/bridge/dtrace_probe_test.cpp fires them under a real DTrace.)
#include "jbench/probes/usdt_dtrace.h"

#include <gtest/gtest.h>

namespace jbench {
namespace {

TEST(UsdtDtrace, EveryArgumentFormIsItsDExpression) {
  EXPECT_EQ(usdt_argument_expression("8@%rsi"), "(uint64_t)uregs[R_RSI]");
  EXPECT_EQ(usdt_argument_expression("-8@%rdx"), "(int64_t)uregs[R_RDX]");
  EXPECT_EQ(usdt_argument_expression("4@%edi"), "(uint32_t)uregs[R_RDI]");
  EXPECT_EQ(usdt_argument_expression("-4@%r12d"), "(int32_t)uregs[R_R12]");
  EXPECT_EQ(usdt_argument_expression("1@%al"), "(uint8_t)uregs[R_RAX]");
  EXPECT_EQ(usdt_argument_expression("4@$5"), "(uint32_t)5");
  EXPECT_EQ(usdt_argument_expression("8@-16(%rbp)"),
            "*(uint64_t *)copyin(uregs[R_RBP] + (-16), 8)");
  EXPECT_EQ(usdt_argument_expression("-2@(%rax)"), "*(int16_t *)copyin(uregs[R_RAX] + (0), 2)");
  for (const char* unreadable :
       {"8@(%rax,%rbx,8)", "8@%xmm0", "3@%rax", "8@", "%rax", "x@%rax", "8@16(%rbp", "8@$x"}) {
    EXPECT_EQ(usdt_argument_expression(unreadable), std::nullopt) << unreadable;
  }
}

elf::FunctionTable two_functions() {
  elf::FunctionTable t;
  t.functions = {{0x1000, 0x1080, "_ZN12_GLOBAL__N_113span_begin_onEiPKcm"},
                 {0x1100, 0x1200, "jb_canary"}};
  return t;
}

TEST(UsdtDtrace, ASiteIsPlacedInTheFunctionThatCoversIt) {
  SdtProbe begin{"jbench", "span__begin", "8@%rsi 8@%rdx 8@%rax", 0x100e, 0, 0xc900};
  SdtProbe canary{"jbench", "canary", "8@%rax", 0x11c0, 0, 0xc904};
  const UsdtPlacement p = place_usdt_sites({begin, canary}, two_functions());
  EXPECT_TRUE(p.problems.empty()) << (p.problems.empty() ? "" : p.problems[0]);
  ASSERT_EQ(p.sites.size(), 2u);
  EXPECT_EQ(p.sites[0].function, "_ZN12_GLOBAL__N_113span_begin_onEiPKcm");
  EXPECT_EQ(p.sites[0].offset, 0x0eu);
  EXPECT_EQ(p.sites[0].arguments.size(), 3u);
  EXPECT_EQ(p.sites[1].function, "jb_canary");
  EXPECT_EQ(p.sites[1].offset, 0xc0u);
  const std::string d = usdt_pid_clauses(42, "libjbench_bridge.so.1", p.sites,
                                         {{"canary", "printf(\"%u %u\\n\", {arg0}, {arg0});"}});
  EXPECT_EQ(d,
            "pid42:libjbench_bridge.so.1:jb_canary:c0 {\n"
            "  printf(\"%u %u\\n\", ((uint64_t)uregs[R_RAX]), ((uint64_t)uregs[R_RAX]));\n"
            "}\n");
}

TEST(UsdtDtrace, WhatCannotBePlacedOrReadIsAProblem) {
  SdtProbe outside{"jbench", "phase", "8@%rdx", 0x1090, 0, 0xc90e};  // between functions
  SdtProbe indexed{"jbench", "counter", "8@(%rax,%rbx,8)", 0x1110, 0, 0xc90c};
  const UsdtPlacement p = place_usdt_sites({outside, indexed}, two_functions());
  EXPECT_TRUE(p.sites.empty());
  ASSERT_EQ(p.problems.size(), 2u);
  EXPECT_NE(p.problems[0].find("jbench:phase at 0x1090: no function symbol covers the site"),
            std::string::npos)
      << p.problems[0];
  EXPECT_NE(p.problems[1].find("argument '8@(%rax,%rbx,8)' is not a form D can read"),
            std::string::npos)
      << p.problems[1];
}

}  // namespace
}  // namespace jbench
