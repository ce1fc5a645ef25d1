// An independent oracle: `strace -f -c` attached to the same program, in the same run, counts the
// same calls and errors per syscall as the bpftrace collector and the compiled tracer, light and
// full (summed over phases and over the program and its forked child). strace and the BPF
// backends share no code and observe differently (ptrace stops vs kernel tracepoints), so
// agreement is evidence about both.
#include <gtest/gtest.h>

#include "strace_oracle.h"
#include "target_driver.h"

namespace jbench::test {
namespace {

TEST(SyscallCollectorOracle, BpftraceCountsAgreeWithStraceSummaryOfTheSameRun) {
  if (auto why = bpftrace_missing(); !why.empty())
    GTEST_SKIP() << "bpftrace cannot attach: " << why;
  if (auto why = strace_missing(); !why.empty()) GTEST_SKIP() << "strace cannot attach: " << why;
  expect_agreement_with_strace("bpftrace", collectors::SyscallDetail::light);
}

#ifdef JBENCH_HAVE_LIBBPF
TEST(SyscallCollectorOracle, CompiledTracerCountsAgreeWithStraceSummaryOfTheSameRun) {
  if (auto why = libbpf_missing(); !why.empty()) GTEST_SKIP() << "libbpf cannot load: " << why;
  if (auto why = strace_missing(); !why.empty()) GTEST_SKIP() << "strace cannot attach: " << why;
  expect_agreement_with_strace("libbpf", collectors::SyscallDetail::light);
  expect_agreement_with_strace("libbpf", collectors::SyscallDetail::full);
}
#endif

}  // namespace
}  // namespace jbench::test
