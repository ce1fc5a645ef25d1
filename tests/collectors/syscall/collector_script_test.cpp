// The generated programs compile with the real bpftrace (`--emit-elf`: compiled, not attached),
// at the string limit the collector uses: BPF's 512-byte stack is the limit a change to the
// generator most easily breaks, and only the real compiler can tell.
#include <gtest/gtest.h>

#include "bpftrace_script.h"
#include "host_tools.h"
#include "run_process.h"
#include "syscall_table.h"
#include "target_driver.h"
#include "temp_dir.h"

namespace jbench::test {
namespace {

using namespace collectors::syscall_detail;

void expect_compiles(Detail detail) {
  ScriptSpec spec;
  spec.detail = detail;
  spec.harness_pid = 1;
  spec.cohort = {2, 3};
  for (const auto& c : traced_calls()) spec.calls.push_back(c.name);
  spec.canary_calls = {"faccessat", "faccessat2", "access"};
  TempDir dir;
  const std::string script = dir.write("syscall.bt", bpftrace_script(spec));
  ProcessOptions options;
  options.timeout = std::chrono::milliseconds(60'000);
  options.env = {{"BPFTRACE_STRLEN", std::to_string(kStringLimit)}};
  const auto r = run_process(
      {find_on_path("bpftrace"), "--emit-elf", dir.path() + "/out.elf", script}, options);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("stack limit"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("ERROR: ", r.err.find("RLIMIT_MEMLOCK") + 1), std::string::npos) << r.err;
}

TEST(BpftraceScriptCompiles, Light) {
  if (auto why = bpftrace_missing(); !why.empty()) GTEST_SKIP() << "no bpftrace here: " << why;
  expect_compiles(Detail::light);
}

TEST(BpftraceScriptCompiles, Full) {
  if (auto why = bpftrace_missing(); !why.empty()) GTEST_SKIP() << "no bpftrace here: " << why;
  expect_compiles(Detail::full);
}

}  // namespace
}  // namespace jbench::test
