// The collector counts exactly what the observed program did, per phase and per call, with
// bpftrace and with strace, light and full; an unregistered copy of the same program (same
// executable name) doing the same calls throughout changes nothing; a forked child is followed
// as its own incarnation; the raw file passes jbench's event checker.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "counting_checks.h"
#include "jbench/common/clock.h"
#include "temp_dir.h"

namespace jbench::test {
namespace {

using Json = nlohmann::json;
using collectors::SyscallDetail;

TEST(SyscallCollectorBpftrace, LightCountsArePerPhaseExactAndScopedToTheCohort) {
  if (auto why = bpftrace_missing(); !why.empty())
    GTEST_SKIP() << "bpftrace cannot attach: " << why;
  TempDir dir;
  const Outcome o = run_scenario(counting(SyscallDetail::light, "bpftrace"), dir.path());
  EXPECT_EQ(o.entry["backend"], "bpftrace");
  expect_counting_outcome(o);
}

TEST(SyscallCollectorBpftrace, FullRecordsEveryCallWithItsFileAndRequest) {
  if (auto why = bpftrace_missing(); !why.empty())
    GTEST_SKIP() << "bpftrace cannot attach: " << why;
  TempDir dir;
  const Outcome o = run_scenario(counting(SyscallDetail::full, "bpftrace"), dir.path());
  EXPECT_EQ(o.entry["backend"], "bpftrace");
  expect_counting_outcome(o);
  expect_file_breakdown(o, /*identity=*/true);
  EXPECT_EQ(o.entry["records"].get<long>(), calls_made(o) + off_cpu_recorded(o) + samples_of(o));
}

TEST(SyscallCollectorStrace, LightCountsArePerPhaseExactAndScopedToTheCohort) {
  if (auto why = strace_missing(); !why.empty()) GTEST_SKIP() << "strace cannot attach: " << why;
  TempDir dir;
  const Outcome o = run_scenario(counting(SyscallDetail::light, "strace"), dir.path());
  EXPECT_EQ(o.entry["backend"], "strace");
  expect_counting_outcome(o);
}

TEST(SyscallCollectorStrace, FullRecordsEveryCallWithItsPathAndRequest) {
  if (auto why = strace_missing(); !why.empty()) GTEST_SKIP() << "strace cannot attach: " << why;
  TempDir dir;
  const Outcome o = run_scenario(counting(SyscallDetail::full, "strace"), dir.path());
  EXPECT_EQ(o.entry["backend"], "strace");
  expect_counting_outcome(o);
  expect_file_breakdown(o, /*identity=*/false);
  EXPECT_TRUE(o.entry.contains("clock_conversion"));
}

TEST(SyscallCollectorBpftrace, FullKeepsEveryCallOfABurstRightBeforeTheStop) {
  if (auto why = bpftrace_missing(); !why.empty())
    GTEST_SKIP() << "bpftrace cannot attach: " << why;
  TempDir dir;
  Scenario s;
  s.detail = SyscallDetail::full;
  s.backend = "bpftrace";
  s.burst_in_measure = 15'000;  // about 1.5 MiB in the buffers: a backlog, not an overflow
  s.teardown_rounds = 0;
  const Outcome o = run_scenario(s, dir.path());
  ASSERT_EQ(o.entry.value("status", ""), "ok") << o.entry.dump(2);
  expect_counts(o.entry, o.pid, o.did);
}

// A process the harness registers after the start (one the collector could not see fork) is
// traced from its registration on, as an "added" incarnation.
void added_process_is_traced(const std::string& backend) {
  TempDir dir;
  auto worker = Target::spawn(dir.path() + "/work");
  auto late = Target::spawn(dir.path() + "/late");
  ASSERT_TRUE(worker && late);
  collectors::SyscallOptions options;
  options.detail = SyscallDetail::light;
  options.backend = backend;
  options.raw_dir = dir.path() + "/raw";
  options.run_id = "added";
  options.boot_id = "boot";
  auto c = collectors::SyscallCollector::start(options,
                                               {{0, worker->pid(), worker->start_time_ticks()}});
  worker->canary();
  ASSERT_TRUE(c->await_canaries(monotonic_ns() + 10'000'000'000ULL));
  late->work(1);  // before it is registered: not counted
  c->add_process({7, late->pid(), late->start_time_ticks()});
  c->mark_phase("measure");
  Did did;
  add_did(did, "measure", late->work(2));
  worker->exit_and_reap();
  late->exit_and_reap();
  const Json entry = c->stop(monotonic_ns() + 30'000'000'000ULL);
  ASSERT_EQ(entry["status"], "ok") << entry.dump(2);
  expect_counts(entry, late->pid(), did);
  bool listed = false;
  for (const auto& inc : entry["summary"]["incarnations"]) {
    if (inc["pid"] != late->pid()) continue;
    listed = true;
    EXPECT_EQ(inc["origin"], "added");
  }
  EXPECT_TRUE(listed);
}

TEST(SyscallCollectorBpftrace, AnAddedProcessIsTracedFromItsRegistration) {
  if (auto why = bpftrace_missing(); !why.empty())
    GTEST_SKIP() << "bpftrace cannot attach: " << why;
  added_process_is_traced("bpftrace");
}

TEST(SyscallCollectorStrace, AProcessItCannotTraceFailsTheCollector) {
  if (auto why = strace_missing(); !why.empty()) GTEST_SKIP() << "strace cannot attach: " << why;
  TempDir dir;
  auto worker = Target::spawn(dir.path() + "/work");
  auto stranger = Target::spawn(dir.path() + "/stranger");
  ASSERT_TRUE(worker && stranger);
  collectors::SyscallOptions options;
  options.backend = "strace";
  options.raw_dir = dir.path() + "/raw";
  auto c = collectors::SyscallCollector::start(options,
                                               {{0, worker->pid(), worker->start_time_ticks()}});
  worker->canary();
  ASSERT_TRUE(c->await_canaries(monotonic_ns() + 10'000'000'000ULL));
  // Not a fork of a traced process: strace -p cannot take it on once started.
  c->add_process({1, stranger->pid(), stranger->start_time_ticks()});
  worker->exit_and_reap();
  stranger->exit_and_reap();
  const Json entry = c->stop(monotonic_ns() + 30'000'000'000ULL);
  EXPECT_EQ(entry["status"], "collector_failed");
  EXPECT_NE(entry["reason"].get<std::string>().find("strace does not trace pid " +
                                                    std::to_string(stranger->pid())),
            std::string::npos)
      << entry["reason"];
}

#ifdef JBENCH_HAVE_LIBBPF
TEST(SyscallCollectorLibbpf, LightCountsArePerPhaseExactAndScopedToTheCohort) {
  if (auto why = libbpf_missing(); !why.empty()) GTEST_SKIP() << "libbpf cannot load: " << why;
  TempDir dir;
  const Outcome o = run_scenario(counting(SyscallDetail::light, "libbpf"), dir.path());
  EXPECT_EQ(o.entry["backend"], "libbpf");
  expect_counting_outcome(o);
}

TEST(SyscallCollectorLibbpf, AnAddedProcessIsTracedFromItsRegistration) {
  if (auto why = libbpf_missing(); !why.empty()) GTEST_SKIP() << "libbpf cannot load: " << why;
  added_process_is_traced("libbpf");
}

TEST(SyscallCollectorLibbpf, FullRecordsEveryCallWithItsFileAndRequest) {
  if (auto why = libbpf_missing(); !why.empty()) GTEST_SKIP() << "libbpf cannot load: " << why;
  TempDir dir;
  const Outcome o = run_scenario(counting(SyscallDetail::full, "libbpf"), dir.path());
  EXPECT_EQ(o.entry["backend"], "libbpf");
  expect_counting_outcome(o);
  expect_file_breakdown(o, /*identity=*/true);
  EXPECT_EQ(o.entry["records"].get<long>(), calls_made(o) + off_cpu_recorded(o) + samples_of(o));
  // Every call is in the event file: the tracer's own records, read back whole, are not kept
  // beside it.
  const Json raw = o.entry["backend_raw"];
  EXPECT_EQ(std::find(raw.begin(), raw.end(), "raw/syscall.libbpf.records"), raw.end()) << raw;
  EXPECT_FALSE(std::filesystem::exists(o.dir + "/raw/syscall.libbpf.records"));
}

// Records still in the ring when the cohort exits are all read before the run ends: every CPU's
// drained record comes last.
TEST(SyscallCollectorLibbpf, FullKeepsEveryCallOfABurstRightBeforeTheStop) {
  if (auto why = libbpf_missing(); !why.empty()) GTEST_SKIP() << "libbpf cannot load: " << why;
  TempDir dir;
  Scenario s;
  s.detail = SyscallDetail::full;
  s.backend = "libbpf";
  s.burst_in_measure = 100'000;
  s.teardown_rounds = 0;
  const Outcome o = run_scenario(s, dir.path());
  ASSERT_EQ(o.entry.value("status", ""), "ok") << o.entry.dump(2);
  EXPECT_EQ(o.entry["dropped"], 0);
  expect_counts(o.entry, o.pid, o.did);
  EXPECT_EQ(o.entry["records"].get<long>(), calls_made(o) + off_cpu_recorded(o) + samples_of(o));
}
#endif

}  // namespace
}  // namespace jbench::test
