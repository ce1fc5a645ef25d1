#include "jbench/collectors/instructions/callgrind_output.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace jbench::collectors {
namespace {

// The head and tail of a real callgrind.out, cut to what jbench reads.
constexpr const char* kOutput =
    "# callgrind format\n"
    "version: 1\n"
    "creator: callgrind-3.19.0\n"
    "pid: 12575\n"
    "cmd:  /work/build/bin/jbench-sqlite-worker serve\n"
    "part: 1\n"
    "\n"
    "positions: line\n"
    "events: Ir\n"
    "summary: 16177105\n"
    "\n"
    "fl=(1) ???\n"
    "fn=(1) 0x0000000000035890\n"
    "0 812\n"
    "\n"
    "totals: 16177105\n";

TEST(CallgrindOutput, reads_the_program_and_its_instruction_total) {
  const auto t = parse_callgrind_totals(kOutput);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->pid, 12575);
  EXPECT_EQ(t->command, " /work/build/bin/jbench-sqlite-worker serve");
  ASSERT_TRUE(t->instructions());
  EXPECT_EQ(*t->instructions(), 16177105u);
}

TEST(CallgrindOutput, reads_the_instruction_column_among_other_events) {
  const auto t = parse_callgrind_totals("events: Dr Ir Dw\ntotals: 5 1234 7\n");
  ASSERT_TRUE(t);
  EXPECT_EQ(*t->instructions(), 1234u);
  EXPECT_FALSE(parse_callgrind_totals("events: Dr\ntotals: 5\n")->instructions());
}

TEST(CallgrindOutput, a_file_without_events_or_totals_or_with_a_bad_number_is_not_read) {
  EXPECT_FALSE(parse_callgrind_totals(""));
  EXPECT_FALSE(parse_callgrind_totals("events: Ir\n"));  // cut before its totals
  EXPECT_FALSE(parse_callgrind_totals("totals: 12\n"));
  EXPECT_FALSE(parse_callgrind_totals("events: Ir\ntotals: 12x\n"));
}

TEST(CallgrindOutput, the_command_counts_from_the_measure_phase_only_and_follows_exec) {
  const auto argv = callgrind_command("/usr/bin/valgrind", "/run/raw/instructions/worker-0.%p");
  ASSERT_FALSE(argv.empty());
  EXPECT_EQ(argv.front(), "/usr/bin/valgrind");
  for (const char* flag :
       {"--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no", "--trace-children=yes",
        "--callgrind-out-file=/run/raw/instructions/worker-0.%p"}) {
    EXPECT_NE(std::find(argv.begin(), argv.end(), flag), argv.end()) << flag;
  }
}

}  // namespace
}  // namespace jbench::collectors
