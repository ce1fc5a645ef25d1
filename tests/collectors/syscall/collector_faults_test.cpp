// Every way the collector can fail ends in the status word that says so, with a precise reason:
// a backend killed mid-run, events dropped by a too-small buffer, a canary that never arrives,
// output over its bound, no usable backend, an unknown backend name. Malformed backend output is
// covered on checked-in fixtures (parsers_test.cpp, status_test.cpp).
#include <gtest/gtest.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "target_driver.h"
#include "temp_dir.h"

namespace jbench::test {
namespace {

using Json = nlohmann::json;
using collectors::SyscallDetail;

std::string reason(const Outcome& o) { return o.entry.value("reason", ""); }

// Sets an environment variable for one test and restores it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (old_.empty()) {
      ::unsetenv(name_);
    } else {
      ::setenv(name_, old_.c_str(), 1);
    }
  }

 private:
  const char* name_;
  std::string old_;
};

void kill_backend(collectors::SyscallCollector& c) {
  ASSERT_GT(c.backend_pid(), 0);
  ::kill(c.backend_pid(), SIGKILL);
}

Outcome killed_mid_run(const std::string& backend, const std::string& dir) {
  Scenario s;
  s.backend = backend;
  s.during_measure = kill_backend;
  return run_scenario(s, dir);
}

void expect_killed(const Outcome& o) {
  EXPECT_TRUE(o.canaries_ok);
  EXPECT_EQ(o.entry["status"], "collector_failed");
  EXPECT_NE(reason(o).find("the backend ended during the run"), std::string::npos) << reason(o);
  EXPECT_NE(reason(o).find("killed by signal 9"), std::string::npos) << reason(o);
  EXPECT_EQ(o.entry["lifecycle"]["ended"], Json({{"how", "signal"}, {"signal", 9}}));
}

TEST(SyscallCollectorFaults, BpftraceKilledMidRunFails) {
  if (auto why = bpftrace_missing(); !why.empty())
    GTEST_SKIP() << "bpftrace cannot attach: " << why;
  TempDir dir;
  expect_killed(killed_mid_run("bpftrace", dir.path()));
}

TEST(SyscallCollectorFaults, StraceKilledMidRunFails) {
  if (auto why = strace_missing(); !why.empty()) GTEST_SKIP() << "strace cannot attach: " << why;
  TempDir dir;
  expect_killed(killed_mid_run("strace", dir.path()));
}

// A full-detail burst bigger than the backend's buffers hold: the collector fails, and says how
// many events it dropped.
Outcome expect_lost_events_fail(const std::string& backend, int burst) {
  TempDir dir;
  Scenario s;
  s.detail = SyscallDetail::full;
  s.backend = backend;
  s.burst_in_measure = burst;
  const Outcome o = run_scenario(s, dir.path());
  EXPECT_EQ(o.entry["status"], "collector_failed");
  const auto dropped = o.entry["dropped"].get<std::uint64_t>();
  EXPECT_GT(dropped, 0u);
  EXPECT_NE(reason(o).find(std::to_string(dropped) + " event(s) were dropped"), std::string::npos)
      << reason(o);
  return o;
}

TEST(SyscallCollectorFaults, BpftraceLostEventsFailWithTheirCount) {
  if (auto why = bpftrace_missing(); !why.empty())
    GTEST_SKIP() << "bpftrace cannot attach: " << why;
  // One page per CPU for bpftrace's perf buffers, and a burst far bigger than that holds.
  ScopedEnv pages("BPFTRACE_PERF_RB_PAGES", "1");
  expect_lost_events_fail("bpftrace", 200'000);
}

#ifdef JBENCH_HAVE_LIBBPF
// A records ring of one page cannot hold a burst: every reservation that failed is counted, and
// the collector fails with that count.
TEST(SyscallCollectorFaults, LibbpfTinyRingLosesRecordsAndFailsWithTheirCount) {
  if (auto why = libbpf_missing(); !why.empty()) GTEST_SKIP() << "libbpf cannot load: " << why;
  ScopedEnv ring("JBENCH_LIBBPF_RING_BYTES", "4096");
  const Outcome o = expect_lost_events_fail("libbpf", 100'000);
  EXPECT_EQ(o.entry["record_ring_bytes"], 4096);
}

// A syscall link closed mid-run (here: its descriptor replaced, as by a library that closed the
// wrong one) stops the tracing silently in the kernel; the liveness probe at the end says so.
TEST(SyscallCollectorFaults, LibbpfLinkClosedMidRunFails) {
  if (auto why = libbpf_missing(); !why.empty()) GTEST_SKIP() << "libbpf cannot load: " << why;
  for (const auto detail : {SyscallDetail::light, SyscallDetail::full}) {
    TempDir dir;
    Scenario s;
    s.detail = detail;
    s.backend = "libbpf";
    int severed = 0;
    s.during_measure = [&severed](collectors::SyscallCollector&) {
      severed = sever_bpf_links("sys_exit");
    };
    const Outcome o = run_scenario(s, dir.path());
    ASSERT_EQ(severed, 1) << "the tracer's sys_exit link was not found in /proc/self/fdinfo";
    EXPECT_EQ(o.entry["status"], "collector_failed");
    EXPECT_NE(reason(o).find("programs no longer ran at the end of the run"), std::string::npos)
        << reason(o);
  }
}

// This thread's effective capabilities without CAP_BPF, CAP_PERFMON and CAP_SYS_ADMIN, for one
// test: the kernel then refuses to load BPF here, while a tool it starts (bpftrace, run as root)
// gets them back on exec.
class WithoutBpfCapabilities {
 public:
  WithoutBpfCapabilities() {
    header_.version = _LINUX_CAPABILITY_VERSION_3;
    ok_ = ::syscall(SYS_capget, &header_, saved_) == 0;
    __user_cap_data_struct reduced[2] = {saved_[0], saved_[1]};
    for (const int cap : {CAP_BPF, CAP_PERFMON, CAP_SYS_ADMIN}) {
      reduced[cap / 32].effective &= ~(1u << (cap % 32));
    }
    ok_ = ok_ && ::syscall(SYS_capset, &header_, reduced) == 0;
  }
  ~WithoutBpfCapabilities() { ::syscall(SYS_capset, &header_, saved_); }
  bool ok() const { return ok_; }

 private:
  __user_cap_header_struct header_{};
  __user_cap_data_struct saved_[2]{};
  bool ok_ = false;
};

// Where the kernel refuses the compiled tracer, the best backend is the next one, and the entry
// says why the compiled tracer was passed over: never an empty trace.
TEST(SyscallCollectorFaults, BestBackendFallsBackWhenTheCompiledTracerIsRefused) {
  if (auto why = libbpf_missing(); !why.empty()) GTEST_SKIP() << "libbpf cannot load: " << why;
  if (auto why = bpftrace_missing(); !why.empty())
    GTEST_SKIP() << "bpftrace cannot attach: " << why;
  TempDir dir;
  Scenario s;
  s.backend = "";
  s.compiled_first = true;
  Outcome o;
  {
    WithoutBpfCapabilities denied;
    ASSERT_TRUE(denied.ok()) << "capset: " << std::strerror(errno);
    o = run_scenario(s, dir.path());
  }
  ASSERT_EQ(o.entry.value("status", ""), "ok") << o.entry.dump(2);
  EXPECT_EQ(o.entry["backend"], "bpftrace");
  ASSERT_TRUE(o.entry.contains("libbpf_passed_over")) << o.entry.dump(2);
  EXPECT_EQ(o.entry["libbpf_passed_over"]["from"], "libbpf");
  const std::string why = o.entry["libbpf_passed_over"]["reason"];
  EXPECT_NE(why.find("the kernel refused to load the compiled tracer"), std::string::npos) << why;
}

// The consumer's writes fail (here: past the file size limit), so it cannot keep what it reads:
// the collector fails with the write error and never passes the cut file off as the run.
TEST(SyscallCollectorFaults, LibbpfConsumerThatCannotWriteFails) {
  if (auto why = libbpf_missing(); !why.empty()) GTEST_SKIP() << "libbpf cannot load: " << why;
  struct rlimit old {};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  const auto old_handler = ::signal(SIGXFSZ, SIG_IGN);  // EFBIG instead of a signal
  TempDir dir;
  Scenario s;
  s.detail = SyscallDetail::full;
  s.backend = "libbpf";
  s.during_measure = [](collectors::SyscallCollector&) {
    struct rlimit small = {256 * 1024, RLIM_INFINITY};
    ::setrlimit(RLIMIT_FSIZE, &small);
  };
  s.burst_in_measure = 50'000;  // 3.6 MiB of records
  const Outcome o = run_scenario(s, dir.path());
  ::setrlimit(RLIMIT_FSIZE, &old);
  ::signal(SIGXFSZ, old_handler);
  EXPECT_EQ(o.entry["status"], "collector_failed");
  EXPECT_NE(reason(o).find("cannot write"), std::string::npos) << reason(o);
  EXPECT_NE(reason(o).find("syscall.libbpf.records"), std::string::npos) << reason(o);
}
#endif

void expect_unverified(const Outcome& o) {
  EXPECT_FALSE(o.canaries_ok);
  EXPECT_EQ(o.entry["status"], "collector_failed");
  EXPECT_EQ(o.entry["lifecycle"]["attach_verified"], false);
  EXPECT_EQ(o.entry["lifecycle"]["canaries_seen"], Json::array());
  EXPECT_NE(reason(o).find("attachment not verified: the canary of worker(s) 0 was never seen"),
            std::string::npos)
      << reason(o);
}

TEST(SyscallCollectorFaults, BpftraceMissingCanaryFailsAttachment) {
  if (auto why = bpftrace_missing(); !why.empty())
    GTEST_SKIP() << "bpftrace cannot attach: " << why;
  TempDir dir;
  Scenario s;
  s.backend = "bpftrace";
  s.skip_canary = true;
  s.canary_timeout_ns = 1'500'000'000ULL;
  expect_unverified(run_scenario(s, dir.path()));
}

TEST(SyscallCollectorFaults, StraceMissingCanaryFailsAttachment) {
  if (auto why = strace_missing(); !why.empty()) GTEST_SKIP() << "strace cannot attach: " << why;
  TempDir dir;
  Scenario s;
  s.backend = "strace";
  s.skip_canary = true;
  s.canary_timeout_ns = 1'000'000'000ULL;
  expect_unverified(run_scenario(s, dir.path()));
}

Outcome expect_output_over_bound_fails(const std::string& backend) {
  TempDir dir;
  Scenario s;
  s.backend = backend;
  s.detail = SyscallDetail::full;
  s.measure_rounds = 20;
  s.max_output_bytes = 8192;
  const Outcome o = run_scenario(s, dir.path());
  EXPECT_EQ(o.entry["status"], "collector_failed");
  EXPECT_NE(reason(o).find("the output exceeded its bound of 8192 bytes"), std::string::npos)
      << reason(o);
  return o;
}

TEST(SyscallCollectorFaults, OutputOverItsBoundFails) {
  if (auto why = strace_missing(); !why.empty()) GTEST_SKIP() << "strace cannot attach: " << why;
  expect_output_over_bound_fails("strace");
}

#ifdef JBENCH_HAVE_LIBBPF
TEST(SyscallCollectorFaults, LibbpfRecordsOverTheirBoundFail) {
  if (auto why = libbpf_missing(); !why.empty()) GTEST_SKIP() << "libbpf cannot load: " << why;
  const Outcome o = expect_output_over_bound_fails("libbpf");
  EXPECT_NE(reason(o).find("the records file reached its bound of 8192 bytes"), std::string::npos)
      << reason(o);
}
#endif

TEST(SyscallCollectorFaults, NoUsableBackendIsNotAvailableWithRemedies) {
  ScopedEnv path("PATH", "/nonexistent");
  TempDir dir;
  for (const char* backend : {"", "bpftrace", "strace"}) {
    Scenario s;
    s.backend = backend;
    const Outcome o = run_scenario(s, dir.path() + "/" + (*backend ? backend : "best"));
    EXPECT_EQ(o.entry["status"], "not_available") << backend;
    EXPECT_NE(reason(o).find("not installed"), std::string::npos) << reason(o);
    EXPECT_NE(o.entry.value("remediation", "").find("apt-get install"), std::string::npos)
        << o.entry.dump();
    EXPECT_FALSE(o.entry.contains("raw")) << "nothing was recorded, so no raw file is named";
  }
}

TEST(SyscallCollectorFaults, BpftraceThatCannotAttachInTimeFails) {
  if (auto why = bpftrace_missing(); !why.empty())
    GTEST_SKIP() << "bpftrace cannot attach: " << why;
  TempDir dir;
  Scenario s;
  s.backend = "bpftrace";
  s.attach_timeout_ns = 1'000'000'000ULL;  // bpftrace compiles and attaches for seconds
  const Outcome o = run_scenario(s, dir.path());
  EXPECT_FALSE(o.canaries_ok);
  EXPECT_EQ(o.entry["status"], "collector_failed");
  EXPECT_NE(reason(o).find("bpftrace did not attach within the attach timeout"), std::string::npos)
      << reason(o);
}

TEST(SyscallCollectorFaults, BestBackendFallsBackToStraceWhenBpftraceCannotAttach) {
  if (auto why = strace_missing(); !why.empty()) GTEST_SKIP() << "strace cannot attach: " << why;
  if (::geteuid() != 0) GTEST_SKIP() << "only root would try bpftrace first";
  // A bpftrace that fails the way a refused attach does (the real one attaches on this host):
  // it is found first on PATH, prints bpftrace's kind of error and exits 1.
  TempDir dir;
  const std::string bin = dir.path() + "/bin";
  std::filesystem::create_directories(bin);
  {
    std::ofstream fake(bin + "/bpftrace");
    fake
        << "#!/bin/sh\necho 'ERROR: Could not attach probe: Operation not permitted' >&2\nexit 1\n";
  }
  std::filesystem::permissions(bin + "/bpftrace", std::filesystem::perms::owner_all);
  const std::string path = bin + ":" + std::getenv("PATH");
  ScopedEnv with_fake("PATH", path.c_str());
  Scenario s;
  s.backend = "";
  const Outcome o = run_scenario(s, dir.path() + "/run");
  EXPECT_EQ(o.entry["status"], "ok") << o.entry.dump(2);
  EXPECT_EQ(o.entry["backend"], "strace");
  EXPECT_EQ(o.entry["fallback"]["from"], "bpftrace");
  EXPECT_NE(o.entry["fallback"]["reason"].get<std::string>().find(
                "bpftrace exited before it attached: ERROR: Could not attach probe"),
            std::string::npos)
      << o.entry["fallback"].dump();
}

TEST(SyscallCollectorFaults, NothingTracedIsNoEventsObserved) {
  if (auto why = strace_missing(); !why.empty()) GTEST_SKIP() << "strace cannot attach: " << why;
  TempDir dir;
  Scenario s;
  s.backend = "strace";
  s.startup_rounds = s.warmup_rounds = s.measure_rounds = s.teardown_rounds = 0;
  const Outcome o = run_scenario(s, dir.path());
  EXPECT_TRUE(o.canaries_ok);
  EXPECT_EQ(o.entry["status"], "no_events_observed") << o.entry.dump(2);
  EXPECT_EQ(o.entry["records"], 0);
  EXPECT_EQ(o.entry["lifecycle"]["attach_verified"], true);
}

TEST(SyscallCollectorFaults, UnknownBackendNameFails) {
  TempDir dir;
  Scenario s;
  s.backend = "perf";
  const Outcome o = run_scenario(s, dir.path());
  EXPECT_EQ(o.entry["status"], "collector_failed");
  EXPECT_NE(reason(o).find("unknown backend 'perf' (libbpf, bpftrace, dtrace, strace"),
            std::string::npos)
      << reason(o);
}

// DTrace named where none is found: not_available, with the reason and how to build one.
TEST(SyscallCollectorFaults, DtraceWhereNoneIsFoundIsNotAvailableAndSaysHowToGetOne) {
  TempDir dir;
  const char* was = std::getenv("JBENCH_DTRACE");
  const std::string saved = was ? was : "";
  ::setenv("JBENCH_DTRACE", "/nonexistent/dtrace", 1);
  Scenario s;
  s.backend = "dtrace";
  const Outcome o = run_scenario(s, dir.path());
  if (was) {
    ::setenv("JBENCH_DTRACE", saved.c_str(), 1);
  } else {
    ::unsetenv("JBENCH_DTRACE");
  }
  EXPECT_EQ(o.entry["status"], "not_available") << o.entry.dump(2);
  EXPECT_NE(reason(o).find("JBENCH_DTRACE=/nonexistent/dtrace"), std::string::npos) << reason(o);
  EXPECT_NE(o.entry.value("remediation", "").find("ci/dtrace-linux.sh"), std::string::npos)
      << o.entry.dump(2);
}

}  // namespace
}  // namespace jbench::test
