// DTrace (label `dtrace`), wherever one is found ($JBENCH_DTRACE, or a `dtrace` on PATH that
// says it is one; ci/dtrace-linux.sh builds DTrace for Linux): the same counts, scope, raw file
// and file breakdown as the other backends, from the generated D program.
#include <gtest/gtest.h>

#include "counting_checks.h"
#include "strace_oracle.h"
#include "temp_dir.h"

namespace jbench::test {
namespace {

using collectors::SyscallDetail;

// DTrace (tests labelled `dtrace`; ci/dtrace-linux.sh builds one): the same counts, the same
// scope, the same raw file as the other backends.
TEST(SyscallCollectorDtrace, LightCountsArePerPhaseExactAndScopedToTheCohort) {
  if (auto why = dtrace_missing(); !why.empty()) GTEST_SKIP() << why;
  TempDir dir;
  const Outcome o = run_scenario(counting(SyscallDetail::light, "dtrace"), dir.path());
  EXPECT_EQ(o.entry["backend"], "dtrace");
  expect_counting_outcome(o);
}

TEST(SyscallCollectorDtrace, FullRecordsEveryCallWithItsFileAndRequest) {
  if (auto why = dtrace_missing(); !why.empty()) GTEST_SKIP() << why;
  TempDir dir;
  const Outcome o = run_scenario(counting(SyscallDetail::full, "dtrace"), dir.path());
  EXPECT_EQ(o.entry["backend"], "dtrace");
  expect_counting_outcome(o);
  expect_file_breakdown(o, /*identity=*/true);
  EXPECT_EQ(o.entry["records"].get<long>(), calls_made(o) + samples_of(o));
}

// strace -c attached to the same program in the same run counts what the D program counted.
TEST(SyscallCollectorDtrace, CountsAgreeWithStraceSummaryOfTheSameRun) {
  if (auto why = dtrace_missing(); !why.empty()) GTEST_SKIP() << why;
  if (auto why = strace_missing(); !why.empty()) GTEST_SKIP() << "strace cannot attach: " << why;
  expect_agreement_with_strace("dtrace", SyscallDetail::light);
  expect_agreement_with_strace("dtrace", SyscallDetail::full);
}

}  // namespace
}  // namespace jbench::test
