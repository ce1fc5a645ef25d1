// The collector counts exactly what the observed program did, per phase and per call, with
// bpftrace and with strace, light and full; an unregistered copy of the same program (same
// executable name) doing the same calls throughout changes nothing; a forked child is followed
// as its own incarnation; the raw file passes jbench's event checker.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "jbench/common/clock.h"
#include "jbench/events/event_file.h"
#include "raw_lines.h"
#include "target_driver.h"
#include "temp_dir.h"

namespace jbench::test {
namespace {

using Json = nlohmann::json;
using collectors::SyscallDetail;

// Every (phase, call) the program reported is in the summary with the same count and errors, and
// the summary holds nothing the program did not report.
void expect_counts(const Json& entry, pid_t pid, const Did& did) {
  long expected_total = 0;
  for (const auto& [phase, calls] : did) {
    for (const auto& [call, counts] : calls) {
      const Json* cell = summary_cell(entry, pid, phase, call);
      if (counts.first == 0) {
        EXPECT_TRUE(cell == nullptr || cell->at("count") == 0) << phase << " " << call;
        continue;
      }
      expected_total += counts.first;
      ASSERT_NE(cell, nullptr) << "pid " << pid << " " << phase << " " << call << " missing";
      EXPECT_EQ(cell->at("count").get<long>(), counts.first) << phase << " " << call;
      EXPECT_EQ(cell->at("errors").get<long>(), counts.second) << phase << " " << call;
      long in_histogram = 0;
      for (const auto& bucket : cell->at("histogram")) in_histogram += bucket[1].get<long>();
      EXPECT_EQ(in_histogram, counts.first) << "histogram of " << phase << " " << call;
    }
  }
  long summarized = 0;
  for (const auto& inc : entry["summary"]["incarnations"]) {
    if (inc["pid"] != pid) continue;
    for (const auto& [phase, calls] : inc["phases"].items()) {
      for (const auto& [call, cell] : calls.items()) {
        if (call.rfind("off-cpu:", 0) != 0 && call != "syscall:other") {
          summarized += cell["count"].get<long>();
        }
      }
    }
  }
  EXPECT_EQ(summarized, expected_total) << "the summary holds calls the program did not make";
}

void expect_scoped_to_cohort(const Outcome& o) {
  const auto pids = summary_pids(o.entry);
  EXPECT_TRUE(pids.count(o.pid)) << o.entry["summary"].dump();
  EXPECT_FALSE(pids.count(o.twin_pid)) << "the unregistered twin was counted";
  for (pid_t p : pids) EXPECT_TRUE(p == o.pid || p == o.child_pid) << "unexpected pid " << p;
}

EventContext context_of(const Outcome& o) {
  EventContext ctx{o.run_id, o.boot_id, {{o.pid, o.start_time_ticks}}};
  for (const auto& f : o.entry["followed"]) {
    ctx.cohort.emplace(f["pid"].get<std::int64_t>(),
                       std::stoull(f["start_time_ticks"].get<std::string>()));
  }
  return ctx;
}

void expect_raw_file_valid(const Outcome& o) {
  const std::string raw = o.dir + "/" + o.entry.at("raw").get<std::string>();
  const auto report = check_event_file(raw, context_of(o));
  for (const auto& p : report.problems)
    ADD_FAILURE() << p.code << " line " << p.line << ": " << p.message;
  EXPECT_EQ(report.records, o.entry["records"].get<std::uint64_t>());
}

Scenario counting(SyscallDetail detail, const std::string& backend) {
  Scenario s;
  s.detail = detail;
  s.backend = backend;
  s.startup_rounds = 1;
  s.warmup_rounds = 2;
  s.measure_rounds = 3;
  s.teardown_rounds = 1;
  s.fork_rounds_in_measure = 1;
  s.unrelated_twin = true;
  return s;
}

void expect_counting_outcome(const Outcome& o) {
  ASSERT_EQ(o.entry.value("status", ""), "ok") << o.entry.dump(2);
  EXPECT_TRUE(o.canaries_ok);
  EXPECT_EQ(o.entry["lifecycle"]["attach_verified"], true);
  EXPECT_EQ(o.entry["lifecycle"]["canaries_seen"], Json::array({0}));
  EXPECT_EQ(o.entry["lifecycle"]["ended"], Json({{"how", "exit"}, {"code", 0}}));
  EXPECT_EQ(o.entry["dropped"], 0);
  EXPECT_EQ(o.entry["malformed"], 0);
  expect_counts(o.entry, o.pid, o.did);
  ASSERT_NE(o.child_pid, 0);
  expect_counts(o.entry, o.child_pid, o.child_did);
  expect_scoped_to_cohort(o);
  ASSERT_EQ(o.entry["followed"].size(), 1u) << o.entry["followed"].dump();
  EXPECT_EQ(o.entry["followed"][0]["pid"], o.child_pid);
  EXPECT_EQ(o.entry["followed"][0]["parent"], o.pid);
  expect_raw_file_valid(o);
}

// Full detail: descriptors resolve to the file they name, ioctl requests are decoded.
void expect_file_breakdown(const Outcome& o, bool identity) {
  const std::string data = o.dir + "/work/target-" + std::to_string(o.pid) + ".dat";
  const Json* read = summary_cell(o.entry, o.pid, "measure", "read");
  ASSERT_NE(read, nullptr);
  ASSERT_EQ(read->at("files").size(), 1u) << read->dump();
  const Json& row = read->at("files")[0];
  EXPECT_EQ(row["path"], data);
  if (identity) {
    struct stat st {};
    ASSERT_EQ(::stat(data.c_str(), &st), 0);
    EXPECT_EQ(row["file"], std::to_string(major(st.st_dev)) + ":" +
                               std::to_string(minor(st.st_dev)) + ":" + std::to_string(st.st_ino));
  }
  const Json* ioctl = summary_cell(o.entry, o.pid, "measure", "ioctl");
  ASSERT_NE(ioctl, nullptr);
  const Json& requests = ioctl->at("requests");
  long sum = 0;
  for (const auto& [name, r] : requests.items()) sum += r["count"].get<long>();
  EXPECT_EQ(sum, ioctl->at("count").get<long>());
  // TCGETS on a regular file fails with ENOTTY: every one of them is an error, nothing else is.
  ASSERT_TRUE(requests.contains("TCGETS")) << requests.dump();
  EXPECT_EQ(requests["TCGETS"]["errors"], requests["TCGETS"]["count"]);
  EXPECT_EQ(requests["TCGETS"]["errors"], ioctl->at("errors"));
  EXPECT_TRUE(requests.contains("FIONREAD") && requests.contains("FIOCLEX")) << requests.dump();
  // The raw records say the same, call by call.
  long tcgets = 0;
  for (const auto& line : raw_lines(o.dir + "/" + o.entry["raw"].get<std::string>())) {
    const Json r = Json::parse(line);
    if (r.value("kind", "") != "record" || r.value("request", "") != "TCGETS") continue;
    EXPECT_EQ(r["errno"], "ENOTTY");
    EXPECT_EQ(r["result"], -25);
    if (r["pid"] == o.pid && r["phase"] == "measure") ++tcgets;
  }
  EXPECT_EQ(tcgets, requests["TCGETS"]["count"].get<long>());
}

TEST(SyscallCollectorBpftrace, LightCountsArePerPhaseExactAndScopedToTheCohort) {
  if (auto why = bpftrace_missing(); !why.empty())
    GTEST_SKIP() << "bpftrace cannot attach: " << why;
  TempDir dir;
  const Outcome o = run_scenario(counting(SyscallDetail::light, "bpftrace"), dir.path());
  EXPECT_EQ(o.entry["backend"], "bpftrace");
  expect_counting_outcome(o);
}

// Every call the program and its fork said they made.
long calls_made(const Outcome& o) {
  long calls = 0;
  for (const auto& [phase, c] : o.did)
    for (const auto& [n, v] : c) calls += v.first;
  for (const auto& [phase, c] : o.child_did)
    for (const auto& [n, v] : c) calls += v.first;
  return calls;
}

// The compiled tracer's on-CPU samples of a full run, each a record of its own (0 elsewhere).
long samples_of(const Outcome& o) { return o.entry.value("cpu_samples", 0L); }

// The compiled tracer's intervals off the CPU (off-cpu:*), each a record of its own: none from
// the other backends.
long off_cpu_recorded(const Outcome& o) {
  long n = 0;
  for (const auto& inc : o.entry["summary"]["incarnations"]) {
    for (const auto& [phase, calls] : inc["phases"].items()) {
      for (const auto& [call, cell] : calls.items()) {
        if (call.rfind("off-cpu:", 0) == 0) n += cell["count"].get<long>();
      }
    }
  }
  return n;
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

// Calls still in bpftrace's buffers when the cohort exits are read before bpftrace is stopped
// (interrupted, bpftrace 0.17 drops what it has not read, silently).
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
