// The bridge end to end: the C example (bridge/examples/spans.c) built against the shared and
// the static library, `jbench probes` on the binaries, and the raw files the example writes in
// each mode, checked with jbench::events' reader.
#include <elf.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "bridge_test_support.h"
#include "jbench/events/event_file.h"
#include "run_process.h"
#include "temp_dir.h"

namespace jbench {
namespace {

using nlohmann::json;
using test::codes;
using test::context_of;
using test::parse_output;
using test::read_lines;
using test::run_process;
using test::span_named;

constexpr const char* kContractProbes[] = {"span__begin", "span__end",     "canary",  "gc__begin",
                                           "gc__end",     "alloc__sample", "counter", "phase"};

bool exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

test::ProcessResult run_example(const std::string& exe, const std::string& mode,
                                const std::string& out, const std::string& extra = "0",
                                const std::string& buffer = "") {
  test::ProcessOptions o;
  o.timeout = std::chrono::seconds(20);
  o.env = test::bridge_env(mode, out, buffer);
  return run_process({exe, extra}, o);
}

// Whether the ELF file has a PT_INTERP segment, i.e. is dynamically linked.
bool has_interpreter(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  Elf64_Ehdr eh{};
  in.read(reinterpret_cast<char*>(&eh), sizeof eh);
  for (int i = 0; in && i < eh.e_phnum; ++i) {
    Elf64_Phdr ph{};
    in.seekg(static_cast<std::streamoff>(eh.e_phoff + static_cast<std::uint64_t>(i) * sizeof ph));
    in.read(reinterpret_cast<char*>(&ph), sizeof ph);
    if (in && ph.p_type == PT_INTERP) return true;
  }
  return false;
}

json probes_json(const std::string& binary, int expected_exit) {
  const auto r = run_process({JBENCH_BIN, "probes", binary, "--json"});
  EXPECT_EQ(r.exit_code, expected_exit) << r.out << r.err;
  return json::parse(r.out, nullptr, false);
}

void expect_contract_probes(const json& report) {
  ASSERT_TRUE(report.is_object());
  EXPECT_TRUE(report["ok"].get<bool>()) << report.dump(2);
  EXPECT_EQ(report["abi_version"]["major"], 1);
  std::set<std::string> names;
  for (const json& p : report["probes"]) {
    if (p["provider"] != "jbench") continue;  // a static link also brings libstdcxx's probes
    EXPECT_NE(p["semaphore"], "0x0") << p.dump();
    names.insert(p["name"].get<std::string>());
  }
  for (const char* probe : kContractProbes) EXPECT_TRUE(names.count(probe)) << probe;
}

TEST(BridgeProbes, SharedLibraryCarriesTheContract) {
  expect_contract_probes(probes_json(JBENCH_BRIDGE_SO, 0));
}

TEST(BridgeProbes, StaticExampleCarriesTheContract) {
  if (SPANS_FULLY_STATIC) {
    EXPECT_FALSE(has_interpreter(SPANS_STATIC)) << "built with -static, yet dynamically linked";
  } else {
    std::fprintf(stderr,
                 "note: no static glibc: libjbench_bridge.a is tested inside a dynamic "
                 "executable\n");
  }
  expect_contract_probes(probes_json(SPANS_STATIC, 0));
}

TEST(BridgeProbes, DynamicExampleHasNoNotesOfItsOwn) {
  // The probes live in libjbench_bridge.so, not in the executable that loads it: the command
  // reads one file and says so rather than following DT_NEEDED.
  ASSERT_TRUE(has_interpreter(SPANS_SHARED));
  const json report = probes_json(SPANS_SHARED, 1);
  ASSERT_TRUE(report.is_object());
  std::set<std::string> found;
  for (const json& f : report["findings"]) found.insert(f["code"].get<std::string>());
  EXPECT_TRUE(found.count("probes.missing"));
}

TEST(BridgeProbes, UnreadableOrNotElfIsBadUsage) {
  test::TempDir dir;
  EXPECT_EQ(run_process({JBENCH_BIN, "probes", dir.path() + "/absent"}).exit_code, 2);
  EXPECT_EQ(run_process({JBENCH_BIN, "probes", dir.write("text", "not an ELF file\n")}).exit_code,
            2);
  EXPECT_EQ(run_process({JBENCH_BIN, "probes"}).exit_code, 2);
}

// `--dtrace PID`: a clause per probe site of the binary, for DTrace's pid provider in PID, each
// printing its probe's arguments by the contract's types; armed only where the process maps the
// binary. (tests/bridge/dtrace_probe_test.cpp runs the program under a real DTrace.)
TEST(BridgeProbes, TheDtraceProgramHasAClausePerSiteAndArmsOnlyAProcessThatMapsIt) {
  const auto r = run_process({JBENCH_BIN, "probes", JBENCH_BRIDGE_SO, "--dtrace", "4242"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json notes = probes_json(JBENCH_BRIDGE_SO, 0);
  std::size_t clauses = 0;
  for (std::size_t at = r.out.find("\npid4242:libjbench_bridge.so.1:"); at != std::string::npos;
       at = r.out.find("\npid4242:libjbench_bridge.so.1:", at + 1)) {
    ++clauses;
  }
  EXPECT_EQ(clauses, notes["probes"].size()) << r.out;
  EXPECT_NE(r.out.find(R"(printf("probe counter %s %d\n", copyinstr(((uint64_t)uregs[R_RAX])), )"
                       R"(((int64_t)uregs[R_RDX]));)"),
            std::string::npos)
      << r.out;
  // This test process does not map the library: nothing to arm, said, exit 2.
  const auto armed = run_process(
      {JBENCH_BIN, "probes", JBENCH_BRIDGE_SO, "--dtrace", std::to_string(::getpid()), "--arm"});
  EXPECT_EQ(armed.exit_code, 2);
  EXPECT_NE(armed.err.find("is not mapped in process"), std::string::npos) << armed.err;
  EXPECT_EQ(run_process({JBENCH_BIN, "probes", JBENCH_BRIDGE_SO, "--arm"}).exit_code, 2);
  EXPECT_EQ(
      run_process({JBENCH_BIN, "probes", JBENCH_BRIDGE_SO, "--dtrace", "42", "--json"}).exit_code,
      2);
}

TEST(BridgeProbes, OtherMajorVersionIsAFinding) {
  test::TempDir dir;
  std::ifstream in(PROJECT_MANIFEST);
  json contract = json::parse(in);
  contract["abi_version"]["major"] = 2;
  const std::string path = dir.write("v2.json", contract.dump());
  const auto r = run_process({JBENCH_BIN, "probes", JBENCH_BRIDGE_SO, "--contract", path});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("probes.abi_major"), std::string::npos) << r.out;
}

TEST(BridgeProbes, BpftraceListsTheProbesWhereItCanAttach) {
  const auto which = run_process({"/bin/sh", "-c", "command -v bpftrace"});
  if (which.exit_code != 0) GTEST_SKIP() << "bpftrace is not installed";
  test::ProcessOptions o;
  o.timeout = std::chrono::seconds(30);
  const std::string so = JBENCH_BRIDGE_SO;
  std::string bpftrace = which.out.substr(0, which.out.find('\n'));
  const auto r = run_process({bpftrace, "-l", "usdt:" + so + ":jbench:*"}, o);
  if (r.timed_out || r.exit_code != 0 || r.out.empty()) {
    GTEST_SKIP() << "bpftrace cannot list USDT probes here (exit " << r.exit_code
                 << (r.timed_out ? ", timed out" : "") << "): " << r.err;
  }
  for (const char* probe : kContractProbes) {
    EXPECT_NE(r.out.find(std::string(":jbench:") + probe), std::string::npos) << probe << r.out;
  }
}

class BridgeRuntime : public ::testing::TestWithParam<std::string> {};

TEST_P(BridgeRuntime, FullModeWritesAValidFileWithParentsAcrossThreadAndFork) {
  test::TempDir dir;
  const std::string out = dir.path() + "/spans.events.jsonl";
  const auto r = run_example(GetParam(), "full", out, "10");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto kv = parse_output(r.out);
  const auto lines = read_lines(out);
  const EventContext ctx = context_of(lines);

  const EventFileReport report = check_event_file(out, ctx);
  EXPECT_TRUE(report.ok()) << codes(report);
  EXPECT_EQ(report.spans, 4u + 10u);  // root, work, thread-work, child-work, 10 extra
  ASSERT_TRUE(report.trailer);
  EXPECT_EQ((*report.trailer)["dropped"], 0);
  EXPECT_EQ((*report.header)["collector"], "bridge");
  EXPECT_EQ((*report.header)["backend"], "usdt-bridge");

  // Two incarnations wrote: the example and its forked child.
  std::set<std::int64_t> pids;
  for (const auto& [pid, ticks] : ctx.cohort) pids.insert(pid);
  EXPECT_EQ(pids,
            (std::set<std::int64_t>{std::stoll(kv.at("pid")), std::stoll(kv.at("child_pid"))}));

  const json* root = span_named(lines, "root");
  const json* work = span_named(lines, "work");
  const json* thread = span_named(lines, "thread-work");
  const json* child = span_named(lines, "child-work");
  ASSERT_TRUE(root && work && thread && child);
  EXPECT_EQ((*root)["span_id"], kv.at("root"));
  EXPECT_TRUE((*root)["parent_id"].is_null());
  EXPECT_EQ((*work)["parent_id"], (*root)["span_id"]);
  // The thread hop: another tid, same parent.
  EXPECT_NE((*thread)["tid"], (*root)["tid"]);
  EXPECT_EQ((*thread)["parent_id"], (*root)["span_id"]);
  // The process hop through a traceparent: another pid, same parent.
  EXPECT_NE((*child)["pid"], (*root)["pid"]);
  EXPECT_EQ((*child)["parent_id"], (*root)["span_id"]);

  std::set<std::string> types;
  for (const json& l : lines) types.insert(l.value("type", ""));
  for (const char* t : {"canary", "phase", "counter", "gc_begin", "gc_end", "alloc_sample"}) {
    EXPECT_TRUE(types.count(t)) << t;
  }
}

TEST_P(BridgeRuntime, LightModeKeepsSpansButNotCounters) {
  test::TempDir dir;
  const std::string out = dir.path() + "/light.events.jsonl";
  ASSERT_EQ(run_example(GetParam(), "light", out).exit_code, 0);
  const auto lines = read_lines(out);
  EXPECT_TRUE(check_event_file(out, context_of(lines)).ok());
  for (const json& l : lines) {
    EXPECT_NE(l.value("type", ""), "counter");
    EXPECT_NE(l.value("type", ""), "alloc_sample");
  }
  EXPECT_TRUE(span_named(lines, "child-work"));
}

TEST_P(BridgeRuntime, OffAndNoConsumerWriteNothing) {
  test::TempDir dir;
  for (const char* mode : {"off", "no-consumer"}) {
    const std::string out = dir.path() + "/" + mode + ".events.jsonl";
    const auto r = run_example(GetParam(), mode, out);
    EXPECT_EQ(r.exit_code, 0) << mode << r.err;
    EXPECT_FALSE(exists(out)) << mode;
    // Off never initialises the ids; no-consumer makes them for the probes.
    const auto kv = parse_output(r.out);
    EXPECT_EQ(kv.at("root") == "0000000000000000", std::string(mode) == "off") << mode;
  }
}

// A 4-slot ring and 2000 spans made in a tight loop: the writer, woken at half a ring and
// encoding each event as JSON, cannot keep up with a loop that makes one every few tens of ns.
// (With 100 spans, a fast writer on the other core once drained them all in time: nothing was
// dropped and there was nothing to count.)
TEST_P(BridgeRuntime, TinyBufferDropsAndCounts) {
  test::TempDir dir;
  const std::string out = dir.path() + "/tiny.events.jsonl";
  ASSERT_EQ(run_example(GetParam(), "full", out, "2000", "4").exit_code, 0);
  const auto lines = read_lines(out);
  const EventFileReport report = check_event_file(out, context_of(lines));
  ASSERT_TRUE(report.trailer);
  EXPECT_GT((*report.trailer)["dropped"].get<std::uint64_t>(), 0u);
  std::set<std::string> found;
  for (const auto& p : report.problems) found.insert(p.code);
  EXPECT_TRUE(found.count("events.dropped"));
  EXPECT_TRUE(found.count("events.overflow"));  // the marker the writer leaves per full stream
  EXPECT_FALSE(found.count("events.count_mismatch")) << codes(report);
  EXPECT_FALSE(found.count("events.malformed")) << codes(report);
  EXPECT_FALSE(found.count("events.gap")) << codes(report);
  // The overflow records account for every drop the trailer counts.
  std::uint64_t marked = 0;
  for (const json& l : lines) {
    if (l.value("type", "") == "overflow") marked += std::stoull(l["dropped"].get<std::string>());
  }
  EXPECT_EQ(marked, (*report.trailer)["dropped"].get<std::uint64_t>());
}

TEST_P(BridgeRuntime, BadModeAndExistingFileRefuseToStart) {
  test::TempDir dir;
  EXPECT_EQ(run_example(GetParam(), "loud", dir.path() + "/x").exit_code, 3);
  const std::string taken = dir.write("taken.events.jsonl", "someone else's\n");
  EXPECT_EQ(run_example(GetParam(), "full", taken).exit_code, 3);
}

INSTANTIATE_TEST_SUITE_P(Linkage, BridgeRuntime, ::testing::Values(SPANS_SHARED, SPANS_STATIC),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           return std::string(param.index == 0 ? "Shared" : "Static");
                         });

}  // namespace
}  // namespace jbench
