// Every probe of the jbench provider, fired by probe_target.c built against the shared library,
// seen by a real DTrace (label `dtrace`; skipped, saying why, where none is found) with its exact
// arguments, through the program `jbench probes LIBRARY --dtrace PID --arm` prints: the sites of
// the library's `.note.stapsdt` notes as pid-provider offset probes (jbench/probes/usdt_dtrace.h),
// their semaphores raised in the running target (usdt_semaphores.h), as DTrace for Linux cannot
// register USDT probes itself on a kernel without CUSE. (Its pid provider does not probe static
// executables: the static target is bpftrace's.)
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>

#include "bridge_test_support.h"
#include "fire_values.h"
#include "jbench/host_caps/dtrace.h"
#include "run_process.h"
#include "target_process.h"
#include "temp_dir.h"

namespace jbench {
namespace {

using namespace std::chrono_literals;

TEST(EveryProbeThroughDtrace, IsSeenWithItsArgumentsAtItsPidOffsetProbes) {
  const host_caps::DtraceFound dtrace = host_caps::find_dtrace();
  if (dtrace.path.empty()) GTEST_SKIP() << dtrace.reason;

  test::TempDir dir;
  const std::string out = dir.path() + "/dtrace.events.jsonl";
  test::TargetProcess target({PROBE_TARGET_SHARED, "fire", "--wait"},
                             test::bridge_env("full", out));
  ASSERT_TRUE(
      target.read_line_until([](const std::string& l) { return l.rfind("ready ", 0) == 0; }, 20s))
      << "the target did not start: " << target.err();
  // What a user types: the program for this process, its semaphores raised.
  const auto made = test::run_process(
      {JBENCH_BIN, "probes", JBENCH_BRIDGE_SO, "--dtrace", std::to_string(target.pid()), "--arm"});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const std::string program = made.out + "BEGIN { printf(\"attached\\n\"); }\n";
  const std::string script = dir.path() + "/usdt.d";
  std::ofstream(script) << program;
  test::TargetProcess tracer({dtrace.path, "-s", script}, {});
  ASSERT_TRUE(tracer.read_line_until([](const std::string& l) { return l == "attached"; }, 90s))
      << "DTrace did not enable the probes:\n"
      << program << tracer.err();

  ASSERT_TRUE(target.write_stdin("go\n"));
  ASSERT_EQ(target.wait(20s), 0) << target.err();
  const std::uint64_t span = hex(test::parse_output(target.out()).at("span"));
  const std::string last = std::string("probe phase ") + kDone;
  ASSERT_TRUE(tracer.read_line_until([&](const std::string& l) { return l == last; }, 30s))
      << tracer.out() << tracer.err();
  const auto seen = seen_probes(tracer.out());

  for (const char* probe : kProviderProbes) {
    EXPECT_EQ(seen.count(probe), std::string(probe) == "phase" ? 2u : 1u)
        << probe << " seen by DTrace:\n"
        << tracer.out();
  }
  if (::testing::Test::HasFailure()) return;
  expect_fire_arguments(seen, span);
}

}  // namespace
}  // namespace jbench
