// Every probe of the jbench provider, fired by a real program (probe_target.c, built against the
// shared library and statically): each one is a record in the raw file, and where bpftrace can
// attach on this host each one is also seen by bpftrace, with its arguments. Where it cannot, the
// test is skipped with the reason, never passed silently.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bridge_test_support.h"
#include "fire_values.h"
#include "run_process.h"
#include "target_process.h"
#include "temp_dir.h"

namespace jbench {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

class EveryProbe : public ::testing::TestWithParam<Linkage> {};

// The records `fire` leaves, by type (each type once, phases twice).
std::multimap<std::string, json> records_by_type(const std::vector<json>& lines) {
  std::multimap<std::string, json> out;
  for (const json& l : lines) {
    if (l.value("kind", "") == "record") out.emplace(l["type"].get<std::string>(), l);
  }
  return out;
}

TEST_P(EveryProbe, IsARecordInTheRawFile) {
  test::TempDir dir;
  const std::string out = dir.path() + "/fire.events.jsonl";
  test::ProcessOptions o;
  o.timeout = 20s;
  o.env = test::bridge_env("full", out);
  const auto r = test::run_process({GetParam().program, "fire"}, o);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::uint64_t span = hex(test::parse_output(r.out).at("span"));

  const auto lines = test::read_lines(out);
  const EventFileReport report = check_event_file(out, test::context_of(lines));
  EXPECT_TRUE(report.ok()) << test::codes(report);
  const auto records = records_by_type(lines);
  for (const char* type :
       {"canary", "span_begin", "span_end", "counter", "gc_begin", "gc_end", "alloc_sample"}) {
    EXPECT_EQ(records.count(type), 1u) << type;
  }
  ASSERT_EQ(records.count("phase"), 2u);
  if (::testing::Test::HasFailure()) return;

  EXPECT_EQ(records.find("canary")->second["n"], "0");
  const json& begin = records.find("span_begin")->second;
  EXPECT_EQ(hex(begin["span_id"]), span);
  EXPECT_TRUE(begin["parent_id"].is_null());
  EXPECT_EQ(begin["name"], kSpanName);
  EXPECT_EQ(hex(records.find("span_end")->second["span_id"]), span);
  const json& counter = records.find("counter")->second;
  EXPECT_EQ(counter["name"], kCounter);
  EXPECT_EQ(counter["value"], std::to_string(kCounterValue));
  const json& gc_begin = records.find("gc_begin")->second;
  EXPECT_EQ(gc_begin["generation"], kGeneration);
  EXPECT_EQ(gc_begin["bytes"], std::to_string(kBytesBefore));
  const json& gc_end = records.find("gc_end")->second;
  EXPECT_EQ(gc_end["generation"], kGeneration);
  EXPECT_EQ(gc_end["bytes"], std::to_string(kBytesAfter));
  const json& alloc = records.find("alloc_sample")->second;
  EXPECT_EQ(alloc["bytes"], std::to_string(kAllocBytes));
  EXPECT_EQ(alloc["site"], kAllocSite);
  std::set<std::string> phases;
  for (auto [it, end] = records.equal_range("phase"); it != end; ++it) {
    phases.insert(it->second["name"].get<std::string>());
  }
  EXPECT_EQ(phases, (std::set<std::string>{kPhase, kDone}));
}

// Why bpftrace cannot attach here, or "" if it can: it must exist, run as root and load a BPF
// program (its BEGIN probe). A host that cannot is reported, not failed.
std::string bpftrace_unavailable(std::string& path) {
  const auto which = test::run_process({"/bin/sh", "-c", "command -v bpftrace"});
  if (which.exit_code != 0) return "bpftrace is not installed";
  path = which.out.substr(0, which.out.find('\n'));
  if (::geteuid() != 0) return "bpftrace needs root (CAP_BPF, CAP_PERFMON) and this test is not";
  test::ProcessOptions o;
  o.timeout = 60s;
  const auto r = test::run_process({path, "-e", "BEGIN { printf(\"bpf-ok\\n\"); exit(); }"}, o);
  if (r.timed_out) return "bpftrace did not run a BEGIN probe within 60 s";
  if (r.out.find("bpf-ok") == std::string::npos) {
    return "bpftrace cannot load a BPF program here (exit " + std::to_string(r.exit_code) +
           "): " + r.err;
  }
  return "";
}

// One printf per probe, every argument, then exit at the last phase. "attached" comes from BEGIN,
// which bpftrace runs once every probe is attached.
std::string bpftrace_script(const std::string& probes_in) {
  const std::string p = "usdt:" + probes_in + ":jbench:";
  return "BEGIN { printf(\"attached\\n\"); }\n" + p +
         "span__begin { printf(\"probe span__begin %lu %lu %s\\n\", arg0, arg1, str(arg2)); }\n" +
         p + "span__end { printf(\"probe span__end %lu\\n\", arg0); }\n" + p +
         "canary { printf(\"probe canary %lu\\n\", arg0); }\n" + p +
         "gc__begin { printf(\"probe gc__begin %u %lu\\n\", arg0, arg1); }\n" + p +
         "gc__end { printf(\"probe gc__end %u %lu\\n\", arg0, arg1); }\n" + p +
         "alloc__sample { printf(\"probe alloc__sample %lu %s\\n\", arg0, str(arg1)); }\n" + p +
         "counter { printf(\"probe counter %s %ld\\n\", str(arg0), arg1); }\n" + p +
         "phase { printf(\"probe phase %s\\n\", str(arg0)); }\n" + p + "phase /str(arg0) == \"" +
         kDone + "\"/ { exit(); }\n";
}

TEST_P(EveryProbe, IsSeenByBpftraceWhereItCanAttach) {
  std::string bpftrace;
  if (const std::string why = bpftrace_unavailable(bpftrace); !why.empty()) GTEST_SKIP() << why;

  test::TempDir dir;
  const std::string out = dir.path() + "/bpftrace.events.jsonl";
  test::TargetProcess target({GetParam().program, "fire", "--wait"}, test::bridge_env("full", out));
  const auto ready =
      target.read_line_until([](const std::string& l) { return l.rfind("ready ", 0) == 0; }, 20s);
  ASSERT_TRUE(ready) << "the target did not start: " << target.err();

  // The RLIMIT_MEMLOCK complaint bpftrace prints here is not a failure (it attaches anyway).
  test::TargetProcess tracer({bpftrace, "-B", "none", "-p", std::to_string(target.pid()), "-e",
                              bpftrace_script(GetParam().probes_in)},
                             {});
  const auto attached =
      tracer.read_line_until([](const std::string& l) { return l == "attached"; }, 90s);
  ASSERT_TRUE(attached) << "bpftrace runs BEGIN here but did not attach to the jbench probes of "
                        << GetParam().probes_in << ": " << tracer.err();

  ASSERT_TRUE(target.write_stdin("go\n"));
  ASSERT_EQ(target.wait(20s), 0) << target.err();
  const std::uint64_t span = hex(test::parse_output(target.out()).at("span"));
  // bpftrace exits by itself at the last probe; it is killed if it does not within the deadline.
  tracer.wait(30s);
  const auto seen = seen_probes(tracer.out());

  for (const char* probe : kProviderProbes) {
    EXPECT_GE(seen.count(probe), 1u) << probe << " not seen by bpftrace:\n" << tracer.out();
  }
  if (::testing::Test::HasFailure()) return;
  expect_fire_arguments(seen, span);

  // The same run's raw file holds every event too: tracing and recording do not exclude each
  // other.
  const auto lines = test::read_lines(out);
  const EventFileReport report = check_event_file(out, test::context_of(lines));
  EXPECT_TRUE(report.ok()) << test::codes(report);
  EXPECT_EQ(report.records, 9u);
}

INSTANTIATE_TEST_SUITE_P(Linkage, EveryProbe, ::testing::ValuesIn(kLinkages),
                         [](const ::testing::TestParamInfo<Linkage>& param) {
                           return std::string(param.param.name);
                         });

}  // namespace
}  // namespace jbench
