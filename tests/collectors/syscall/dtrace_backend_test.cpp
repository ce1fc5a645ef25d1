// DTrace (label `dtrace`), wherever one is found ($JBENCH_DTRACE, or a `dtrace` on PATH that
// says it is one; ci/dtrace-linux.sh builds DTrace for Linux): the same counts, scope, raw file
// and file breakdown as the other backends, from the generated D program.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

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
  // Its output, translated whole into the raw events file, is not kept beside it; the program and
  // dtrace's stderr are.
  std::vector<std::string> kept;
  for (const auto& f : o.entry["backend_raw"]) {
    kept.push_back(f.get<std::string>());
    EXPECT_TRUE(std::filesystem::exists(o.dir + "/" + kept.back())) << kept.back();
  }
  EXPECT_EQ(kept,
            (std::vector<std::string>{"raw/syscall.dtrace.d", "raw/syscall.dtrace.stderr.txt"}));
  EXPECT_FALSE(std::filesystem::exists(o.dir + "/raw/syscall.dtrace.txt"));
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
