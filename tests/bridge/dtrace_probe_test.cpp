// Every probe of the jbench provider, fired by probe_target.c built against the shared library,
// seen by a real DTrace (label `dtrace`; skipped, saying why, where none is found) with its exact
// arguments: the probe sites of the library's `.note.stapsdt` notes placed as DTrace pid-provider
// offset probes (jbench/probes/usdt_dtrace.h), their semaphores raised in the running target
// (usdt_semaphores.h), as DTrace for Linux cannot register USDT probes itself on a kernel without
// CUSE. (Its pid provider does not probe static executables: the static target is bpftrace's.)
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>

#include "bridge_test_support.h"
#include "fire_values.h"
#include "jbench/host_caps/dtrace.h"
#include "jbench/probes/usdt_dtrace.h"
#include "jbench/probes/usdt_semaphores.h"
#include "target_process.h"
#include "temp_dir.h"

namespace jbench {
namespace {

using namespace std::chrono_literals;

// One printf per probe, every argument, the strings copied in.
const std::map<std::string, std::string> kBodies = {
    {"span__begin",
     R"(printf("probe span__begin %u %u %s\n", {arg0}, {arg1}, copyinstr({arg2}));)"},
    {"span__end", R"(printf("probe span__end %u\n", {arg0});)"},
    {"canary", R"(printf("probe canary %u\n", {arg0});)"},
    {"gc__begin", R"(printf("probe gc__begin %u %u\n", {arg0}, {arg1});)"},
    {"gc__end", R"(printf("probe gc__end %u %u\n", {arg0}, {arg1});)"},
    {"alloc__sample", R"(printf("probe alloc__sample %u %s\n", {arg0}, copyinstr({arg1}));)"},
    {"counter", R"(printf("probe counter %s %d\n", copyinstr({arg0}), {arg1});)"},
    {"phase", R"(printf("probe phase %s\n", copyinstr({arg0}));)"},
};

TEST(EveryProbeThroughDtrace, IsSeenWithItsArgumentsAtItsPidOffsetProbes) {
  const host_caps::DtraceFound dtrace = host_caps::find_dtrace();
  if (dtrace.path.empty()) GTEST_SKIP() << dtrace.reason;

  const std::string library = std::filesystem::canonical(JBENCH_BRIDGE_SO).string();
  const SdtReadResult notes = read_sdt_notes(library);
  ASSERT_TRUE(notes.ok()) << notes.error;
  const elf::FunctionTable functions = elf::read_function_table_of(library);
  const UsdtPlacement placed = place_usdt_sites(notes.probes, functions);
  for (const auto& p : placed.problems) ADD_FAILURE() << p;
  ASSERT_GE(placed.sites.size(), std::size(kProviderProbes));

  test::TempDir dir;
  const std::string out = dir.path() + "/dtrace.events.jsonl";
  test::TargetProcess target({PROBE_TARGET_SHARED, "fire", "--wait"},
                             test::bridge_env("full", out));
  ASSERT_TRUE(
      target.read_line_until([](const std::string& l) { return l.rfind("ready ", 0) == 0; }, 20s))
      << "the target did not start: " << target.err();
  ASSERT_EQ(add_to_semaphores(target.pid(), library, notes.probes, functions, +1), "");

  const std::string program =
      "#pragma D option quiet\nBEGIN { printf(\"attached\\n\"); }\n" +
      usdt_pid_clauses(target.pid(), std::filesystem::path(library).filename().string(),
                       placed.sites, kBodies);
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
  using Args = std::vector<std::string>;
  EXPECT_EQ(seen.find("span__begin")->second, (Args{std::to_string(span), "0", kSpanName}));
  EXPECT_EQ(seen.find("span__end")->second, Args{std::to_string(span)});
  EXPECT_EQ(seen.find("canary")->second, Args{"0"});
  EXPECT_EQ(seen.find("gc__begin")->second,
            (Args{std::to_string(kGeneration), std::to_string(kBytesBefore)}));
  EXPECT_EQ(seen.find("gc__end")->second,
            (Args{std::to_string(kGeneration), std::to_string(kBytesAfter)}));
  EXPECT_EQ(seen.find("alloc__sample")->second, (Args{std::to_string(kAllocBytes), kAllocSite}));
  EXPECT_EQ(seen.find("counter")->second, (Args{kCounter, std::to_string(kCounterValue)}));
  std::set<std::string> phases;
  for (auto [it, end] = seen.equal_range("phase"); it != end; ++it) phases.insert(it->second[0]);
  EXPECT_EQ(phases, (std::set<std::string>{kPhase, kDone}));
}

}  // namespace
}  // namespace jbench
