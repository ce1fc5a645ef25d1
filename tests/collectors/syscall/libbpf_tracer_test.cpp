// The compiled tracer (collectors/syscall/bpf) on the deterministic target: exactly the cohort's
// calls per phase, nothing of an unregistered twin running the same executable, forks followed
// in the kernel, canaries seen, and nothing kept between runs. Skipped, with the kernel's
// reason, where the tracer cannot load (no BTF, no privilege).
#include "libbpf_tracer.h"

#include <bpf/bpf.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

#include "jbench/host_caps/tracefs.h"
#include "syscall_table.h"
#include "target_driver.h"
#include "temp_dir.h"

namespace jbench::collectors::syscall_detail {
namespace {

using Json = nlohmann::json;

// A run that began, or the tracer's words for why not.
testing::AssertionResult begun(const jbench::Status& began) {
  if (began) return testing::AssertionSuccess();
  return testing::AssertionFailure() << began.error().message;
}

// The traced calls the tracer counted for `pid` in `phase`, by name: {count, errors}.
std::map<std::string, std::pair<long, long>> counted(const RunEnd& t, pid_t pid, int phase) {
  std::map<std::string, std::pair<long, long>> out;
  for (const auto& [key, totals] : t.totals) {
    if (key.pid != pid || key.phase != phase || call_by_id(key.call)->off_cpu ||
        key.call == other_syscalls().id) {
      continue;
    }
    auto& cell = out[std::string(call_by_id(key.call)->name)];
    cell.first += static_cast<long>(totals.count);
    cell.second += static_cast<long>(totals.errors);
  }
  return out;
}

std::map<std::string, std::pair<long, long>> said(const Json& ack) {
  test::Did did;
  test::add_did(did, "p", ack);
  std::map<std::string, std::pair<long, long>> out;
  for (const auto& [call, cell] : did["p"]) {
    if (cell.first > 0) out[call] = cell;
  }
  return out;
}

class LibbpfTracerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = LibbpfTracer::open();
    if (!opened) {
      GTEST_SKIP() << "the compiled tracer cannot load here: " << opened.error().message;
    }
    tracer_ = std::move(*opened);
    RecordProperty("attach_ms", std::to_string(tracer_->attach_ns() / 1'000'000));
  }
  test::TempDir dir_;
  std::unique_ptr<LibbpfTracer> tracer_;
};

// Every traced call this kernel has a tracepoint for is attached: none is left out quietly.
TEST_F(LibbpfTracerTest, AttachesEveryTracedCallThisKernelHas) {
  const std::string tracefs = host_caps::find_tracefs().dir;
  ASSERT_FALSE(tracefs.empty());
  const auto& attached = tracer_->attached_calls();
  for (const TracedCall& c : traced_calls()) {
    if (!host_caps::syscall_tracepoint_exists(tracefs, c.name)) continue;
    EXPECT_NE(std::find(attached.begin(), attached.end(), c.name), attached.end()) << c.name;
  }
  std::fprintf(stderr, "loaded and attached in %.1f ms\n",
               static_cast<double>(tracer_->attach_ns()) / 1e6);
}

// Every other system call of `pid` in `phase`, by the kernel's name: {count, ns}.
std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> others(const RunEnd& t, pid_t pid,
                                                                      int phase) {
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> out;
  for (const auto& [key, totals] : t.totals) {
    if (key.pid != pid || key.phase != phase || key.call != other_syscalls().id) continue;
    for (const auto& [request, n] : totals.requests) {
      auto& cell = out[request_name(other_syscalls(), request)];
      cell.first += n;
      cell.second += totals.request_ns.at(request);
    }
  }
  return out;
}

// Whether `pid` is asleep (state S) in system call `nr`, as /proc says: an event to wait on.
bool sleeping_in(pid_t pid, long nr) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string all;
  std::getline(stat, all);
  const auto paren = all.rfind(')');
  if (paren == std::string::npos || paren + 2 >= all.size() || all[paren + 2] != 'S') return false;
  std::ifstream sys("/proc/" + std::to_string(pid) + "/syscall");
  long in = -1;
  return static_cast<bool>(sys >> in) && in == nr;
}

// Waits (a safety net of 10 s) until `pid` sleeps in system call `nr`; whether it does.
bool wait_until_sleeping_in(pid_t pid, long nr) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!sleeping_in(pid, nr) && std::chrono::steady_clock::now() < deadline) {
    ::poll(nullptr, 0, 1);
  }
  return sleeping_in(pid, nr);
}

// A call no tracer follows is still counted, exactly, by its name and with its time, in its
// phase; and so is the target's acknowledgement (vmsplice), which is no traced call on purpose.
// Nothing of the unregistered twin.
TEST_F(LibbpfTracerTest, EveryOtherSystemCallOfTheCohortIsCountedByItsName) {
  auto member = test::Target::spawn(dir_.path() + "/member");
  auto twin = test::Target::spawn(dir_.path() + "/twin");
  ASSERT_TRUE(member && twin);
  // The run begins once the member waits for its command: its rt_sigtimedwait then began before
  // the run, as the count below assumes (on a busy host it may still be on its way there).
  ASSERT_TRUE(wait_until_sleeping_in(member->pid(), SYS_rt_sigtimedwait));
  ASSERT_TRUE(begun(tracer_->begin_run({member->pid()})));
  tracer_->set_phase(2);
  EXPECT_EQ(member->other(37)["getppid"], 37);
  twin->other(37);
  const RunEnd t = tracer_->end_run();
  EXPECT_EQ(t.lost, 0u);
  const auto seen = others(t, member->pid(), 2);
  ASSERT_TRUE(seen.contains("getppid")) << testing::PrintToString(seen);
  EXPECT_EQ(seen.at("getppid").first, 37u);
  EXPECT_GT(seen.at("getppid").second, 0u);
  // The acknowledgement; the sigtimedwait that received the command began before the run, and
  // the next one has not returned: a call counts in the run it entered and only once it ends.
  ASSERT_TRUE(seen.contains("vmsplice")) << testing::PrintToString(seen);
  EXPECT_EQ(seen.at("vmsplice").first, 1u);
  EXPECT_EQ(seen.size(), 2u) << testing::PrintToString(seen);
  EXPECT_TRUE(others(t, twin->pid(), 2).empty());
  EXPECT_TRUE(others(t, member->pid(), 0).empty()) << "nothing happened in startup";
  member->exit_and_reap();
  twin->exit_and_reap();
}

TEST_F(LibbpfTracerTest, CountsExactlyTheCohortsCallsPerPhaseAndNothingOfAnUnregisteredTwin) {
  auto member = test::Target::spawn(dir_.path() + "/member");
  auto twin = test::Target::spawn(dir_.path() + "/twin");
  ASSERT_TRUE(member && twin);
  ASSERT_TRUE(begun(tracer_->begin_run({member->pid()})));
  const Json startup = member->work(1);
  twin->work(1);
  member->canary();
  std::vector<CanaryHit> canaries;
  std::vector<ForkSeen> forks;
  tracer_->poll(canaries, forks);
  tracer_->set_phase(2);
  const Json measure = member->work(3);
  twin->work(3);
  const RunEnd t = tracer_->end_run();
  EXPECT_EQ(t.lost, 0u);
  EXPECT_EQ(counted(t, member->pid(), 0), said(startup));
  EXPECT_EQ(counted(t, member->pid(), 2), said(measure));
  EXPECT_TRUE(counted(t, twin->pid(), 0).empty());
  EXPECT_TRUE(counted(t, twin->pid(), 2).empty());
  ASSERT_EQ(canaries.size(), 1u);
  EXPECT_EQ(canaries[0].pid, member->pid());
  EXPECT_EQ(canaries[0].path.rfind(std::string(kCanaryPrefix), 0), 0u) << canaries[0].path;
  member->exit_and_reap();
  twin->exit_and_reap();
}

TEST_F(LibbpfTracerTest, AMembersForkJoinsTheCohortInTheKernel) {
  auto member = test::Target::spawn(dir_.path() + "/member");
  ASSERT_TRUE(member);
  ASSERT_TRUE(begun(tracer_->begin_run({member->pid()})));
  tracer_->set_phase(2);
  const Json ack = member->fork_work(2);
  std::vector<CanaryHit> canaries;
  std::vector<ForkSeen> forks;
  tracer_->poll(canaries, forks);
  const RunEnd t = tracer_->end_run();
  const auto child = static_cast<pid_t>(ack.at("child").get<int>());
  ASSERT_EQ(forks.size(), 1u);
  EXPECT_EQ(forks[0].parent, member->pid());
  EXPECT_EQ(forks[0].child, child);
  EXPECT_GT(forks[0].start_boottime_ns, 0u);
  EXPECT_EQ(counted(t, child, 2), said(ack));
  member->exit_and_reap();
}

TEST_F(LibbpfTracerTest, ARunKeepsNothingOfTheRunBefore) {
  auto first = test::Target::spawn(dir_.path() + "/first");
  ASSERT_TRUE(first);
  ASSERT_TRUE(begun(tracer_->begin_run({first->pid()})));
  first->work(2);
  (void)tracer_->end_run();
  auto second = test::Target::spawn(dir_.path() + "/second");
  ASSERT_TRUE(second);
  ASSERT_TRUE(begun(tracer_->begin_run({second->pid()})));
  first->work(2);  // no longer in the cohort
  const Json ack = second->work(1);
  const RunEnd t = tracer_->end_run();
  EXPECT_TRUE(counted(t, first->pid(), 0).empty());
  EXPECT_EQ(counted(t, second->pid(), 0), said(ack));
  // Between runs nothing is traced.
  second->work(1);
  std::vector<CanaryHit> canaries;
  std::vector<ForkSeen> forks;
  tracer_->poll(canaries, forks);
  EXPECT_TRUE(canaries.empty());
  first->exit_and_reap();
  second->exit_and_reap();
}

// Between runs no program is attached: the kernel's own count of the sys_enter program's runs
// stands still while the host makes system calls, loaded and scoped to no run, and after a run
// ended; it grows while a run is traced. (Attached, that program would put every system call of
// the host, a baseline run's among them, on the kernel's slow path.)
TEST_F(LibbpfTracerTest, NoProgramIsAttachedBetweenRuns) {
  const int stats = bpf_enable_stats(BPF_STATS_RUN_TIME);
  if (stats < 0) GTEST_SKIP() << "the kernel's BPF run statistics cannot be enabled here";
  const auto calls_stand_still = [&](const char* when) {
    const std::uint64_t runs = tracer_->entry_program_runs();
    for (int i = 0; i < 100; ++i) ::syscall(SYS_getppid);
    EXPECT_EQ(tracer_->entry_program_runs(), runs) << when;
  };
  calls_stand_still("loaded, before any run");
  auto member = test::Target::spawn(dir_.path() + "/member");
  ASSERT_TRUE(member);
  const std::uint64_t before = tracer_->entry_program_runs();
  ASSERT_TRUE(begun(tracer_->begin_run({member->pid()})));
  EXPECT_EQ(member->other(37)["getppid"], 37);
  EXPECT_GE(tracer_->entry_program_runs() - before, 37u) << "attached while the run is traced";
  const RunEnd t = tracer_->end_run();
  EXPECT_TRUE(t.problems.empty()) << testing::PrintToString(t.problems);
  calls_stand_still("after the run ended");
  member->exit_and_reap();
  ::close(stats);
}

// The calls a full run's records file holds for `pid`, by name.
std::map<std::string, std::pair<long, long>> recorded(const DecodedRecords& d, pid_t pid) {
  std::map<std::string, std::pair<long, long>> out;
  for (const CallRecord& c : d.calls) {
    if (c.pid != pid || call_by_id(c.call)->off_cpu) continue;
    auto& cell = out[std::string(call_by_id(c.call)->name)];
    cell.first += 1;
    cell.second += c.result && *c.result < 0 ? 1 : 0;
  }
  return out;
}

DecodedRecords read_records(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return decode_record_file(bytes.str());
}

TEST_F(LibbpfTracerTest, FullRecordsEveryCallOfTheCohortWithOpensPathsAndDrainsEveryCpu) {
  auto member = test::Target::spawn(dir_.path() + "/member");
  auto twin = test::Target::spawn(dir_.path() + "/twin");
  ASSERT_TRUE(member && twin);
  const std::string file = dir_.path() + "/records";
  ASSERT_TRUE(begun(tracer_->begin_run({member->pid()}, {file})));
  tracer_->set_phase(2);
  const Json ack = member->work(2);
  twin->work(2);
  const RunEnd end = tracer_->end_run();
  EXPECT_TRUE(end.problems.empty()) << end.problems.front();
  EXPECT_EQ(end.lost, 0u);
  const DecodedRecords d = read_records(file);
  ASSERT_TRUE(d.has_trailer);
  EXPECT_EQ(d.malformed, 0u) << d.malformed_examples.front();
  EXPECT_EQ(recorded(d, member->pid()), said(ack));
  EXPECT_TRUE(recorded(d, twin->pid()).empty());
  EXPECT_EQ(d.trailer.missing, 0u);
  EXPECT_EQ(d.trailer.drained_cpus, static_cast<std::uint64_t>(sysconf(_SC_NPROCESSORS_ONLN)));
  std::size_t opens = 0;
  for (const CallRecord& c : d.calls) {
    if (call_by_id(c.call)->off_cpu) continue;  // from before set_phase too: a wait's phase
    EXPECT_EQ(c.phase, 2);                      // is the one it began in
    if (call_by_id(c.call)->kind != ArgKind::path) continue;
    ++opens;
    EXPECT_EQ(c.path.rfind(dir_.path(), 0), 0u) << c.path;
    if (c.result && *c.result >= 0) {
      EXPECT_TRUE(c.file.has_value()) << "an open's record names the file it opened";
    }
  }
  EXPECT_GT(opens, 0u);
  member->exit_and_reap();
  twin->exit_and_reap();
}

// Between two commands the member waits for the next in rt_sigtimedwait, a call the tracer does not
// time: that wait is recorded off the CPU, blocked, naming the call it blocked in.
TEST_F(LibbpfTracerTest, ABlockedWaitOutsideTracedCallsNamesTheCallItBlockedIn) {
  auto member = test::Target::spawn(dir_.path() + "/member");
  ASSERT_TRUE(member);
  const std::string file = dir_.path() + "/records";
  ASSERT_TRUE(begun(tracer_->begin_run({member->pid()}, {file})));
  tracer_->set_phase(2);
  member->work(1);
  // The next command only once the member sleeps in rt_sigtimedwait (its /proc syscall file
  // names the call it is blocked in); sent earlier, it would find the signal already pending.
  ASSERT_TRUE(wait_until_sleeping_in(member->pid(), SYS_rt_sigtimedwait));
  member->work(1);
  const RunEnd end = tracer_->end_run();
  EXPECT_TRUE(end.problems.empty()) << end.problems.front();
  const DecodedRecords d = read_records(file);
  const int blocked = find_call("off-cpu:blocked")->id;
  std::map<std::string, int> blocked_in;
  for (const CallRecord& c : d.calls) {
    if (c.pid != member->pid() || c.call != blocked) continue;
    ASSERT_TRUE(c.request.has_value()) << "a blocked wait carries what it blocked in";
    ++blocked_in[request_name(*call_by_id(c.call), *c.request)];
  }
  EXPECT_TRUE(blocked_in.contains("rt_sigtimedwait")) << ::testing::PrintToString(blocked_in);
  member->exit_and_reap();
}

// Whether /proc/locks lists `pid` waiting for a lock (a "->" line): an event to wait on.
bool waiting_for_a_lock(pid_t pid) {
  std::ifstream locks("/proc/locks");
  std::string line;
  const std::string who = " " + std::to_string(pid) + " ";
  while (std::getline(locks, line)) {
    if (line.find("->") != std::string::npos && line.find(who) != std::string::npos) return true;
  }
  return false;
}

// B waits in flock for the lock A holds; A's release wakes B: B's flock record names A as the
// task that woke it, from A's own process context, and when: during A's release.
TEST_F(LibbpfTracerTest, ACallThatWaitedForALockNamesTheHolderThatWokeIt) {
  auto holder = test::Target::spawn(dir_.path());
  auto waiter = test::Target::spawn(dir_.path());
  ASSERT_TRUE(holder && waiter);
  const std::string file = dir_.path() + "/records";
  ASSERT_TRUE(begun(tracer_->begin_run({holder->pid(), waiter->pid()}, {file})));
  tracer_->set_phase(2);
  holder->lock();
  ASSERT_TRUE(waiter->send_lock());
  // Safety net only: the waiter is in the kernel's list of waiters within milliseconds.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!waiting_for_a_lock(waiter->pid()) && std::chrono::steady_clock::now() < deadline) {
    ::poll(nullptr, 0, 1);
  }
  ASSERT_TRUE(waiting_for_a_lock(waiter->pid())) << "the waiter never waited for the lock";
  holder->unlock();
  waiter->await_ack();
  waiter->unlock();
  const RunEnd end = tracer_->end_run();
  EXPECT_TRUE(end.problems.empty()) << end.problems.front();
  const DecodedRecords d = read_records(file);
  const int flock_id = find_call("flock")->id;
  const CallRecord* waited = nullptr;
  for (const CallRecord& c : d.calls) {
    if (c.pid == waiter->pid() && c.call == flock_id && c.request == LOCK_EX) waited = &c;
  }
  ASSERT_NE(waited, nullptr) << "the waiter's flock(LOCK_EX) was not recorded";
  ASSERT_TRUE(waited->waker.has_value()) << "a call that slept names who woke it";
  EXPECT_EQ(waited->waker->how, "task");
  EXPECT_EQ(waited->waker->pid, holder->pid());
  // When: inside the waiter's call, and inside the holder's own flock(LOCK_UN), whose release
  // woke it.
  ASSERT_TRUE(waited->waker->woken_ns.has_value()) << "the record says when it was woken";
  const std::uint64_t woken = *waited->waker->woken_ns;
  EXPECT_GE(woken, waited->t_ns);
  EXPECT_LE(woken, waited->t_ns + waited->duration_ns);
  const CallRecord* released = nullptr;
  for (const CallRecord& c : d.calls) {
    if (c.pid == holder->pid() && c.call == flock_id && c.request == LOCK_UN) released = &c;
  }
  ASSERT_NE(released, nullptr) << "the holder's flock(LOCK_UN) was not recorded";
  EXPECT_GE(woken, released->t_ns);
  EXPECT_LE(woken, released->t_ns + released->duration_ns);
  holder->exit_and_reap();
  waiter->exit_and_reap();
}

// A consumer that stops reading: the ring fills, and every record the kernel could not reserve is
// counted, in the run's end and in the file's trailer.
TEST_F(LibbpfTracerTest, ARingNobodyReadsCountsEveryRecordItCouldNotKeep) {
  TracerOptions tiny;
  tiny.record_ring_bytes = 4096;
  tiny.off_cpu = false;  // system calls only, so every record is one the member made
  tiny.samples = false;
  auto opened = LibbpfTracer::open(tiny);
  ASSERT_TRUE(opened) << opened.error().message;
  auto& small = *opened;
  EXPECT_EQ(small->record_ring_bytes(), 4096u);
  auto member = test::Target::spawn(dir_.path() + "/member");
  ASSERT_TRUE(member);
  const std::string file = dir_.path() + "/records";
  ASSERT_TRUE(begun(small->begin_run({member->pid()}, {file})));
  const Json ack = member->burst(20'000);
  const RunEnd end = small->end_run();
  long made = 0;
  for (const auto& [call, cell] : said(ack)) made += cell.first;
  const DecodedRecords d = read_records(file);
  ASSERT_TRUE(d.has_trailer);
  EXPECT_GT(end.lost, 0u);
  EXPECT_EQ(d.trailer.lost, end.lost);
  EXPECT_EQ(static_cast<long>(d.calls.size() + end.lost), made);
  member->exit_and_reap();
}

}  // namespace
}  // namespace jbench::collectors::syscall_detail
