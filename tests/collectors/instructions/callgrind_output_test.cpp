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

// Calls as callgrind writes them (3.19, name compression on): a function named once with its
// number, later by the number alone; the called function set by cfn= for the calls= after it.
constexpr const char* kCalls =
    "events: Ir\n"
    "fn=(10) main\n"
    "cfn=(12) malloc\n"
    "calls=1000 3281\n"
    "5 4000\n"
    "cfn=(14) free\n"
    "calls=1000 3350\n"
    "6 3000\n"
    "cfn=(16) strdup\n"
    "calls=1 40\n"
    "7 90\n"
    "fn=(16)\n"
    "cfn=(12)\n"
    "calls=1 3281\n"
    "8 70\n"
    "fn=(20) helper\n"
    "cfn=(22) calloc'2\n"
    "calls=3 +38\n"
    "9 12\n"
    "cfn=(24) __libc_realloc\n"
    "calls=2 -4\n"
    "9 12\n"
    "cfn=(26) _int_malloc\n"
    "calls=7 12\n"
    "9 12\n"
    "totals: 20000\n";

TEST(CallgrindOutput, counts_the_calls_into_allocation_functions_from_every_caller) {
  const auto t = parse_callgrind_totals(kCalls);
  ASSERT_TRUE(t);
  // malloc 1000 + 1 (from strdup, named by number), calloc 3, realloc 2; free, strdup and the
  // allocator's internal _int_malloc are not allocation calls.
  EXPECT_EQ(t->allocations, 1006u);
  EXPECT_EQ(*t->instructions(), 20000u);
}

TEST(CallgrindOutput, names_without_compression_and_a_file_without_calls_count_the_same_way) {
  const auto plain = parse_callgrind_totals(
      "events: Ir\nfn=main\ncfn=malloc\ncalls=5 1\n1 2\ncfn=puts\ncalls=2 1\n1 2\ntotals: 9\n");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->allocations, 5u);
  EXPECT_EQ(parse_callgrind_totals(kOutput)->allocations, 0u);
}

TEST(CallgrindOutput, knows_the_allocation_functions_by_name) {
  for (const char* f :
       {"malloc", "calloc", "realloc", "reallocarray", "posix_memalign", "aligned_alloc",
        "memalign", "valloc", "pvalloc", "__libc_malloc", "malloc'3"}) {
    EXPECT_TRUE(is_allocation_function(f)) << f;
  }
  for (const char* f : {"free", "strdup", "_int_malloc", "mallocx", "operator new(unsigned long)",
                        "sqlite3Malloc", ""}) {
    EXPECT_FALSE(is_allocation_function(f)) << f;
  }
}

}  // namespace
}  // namespace jbench::collectors
