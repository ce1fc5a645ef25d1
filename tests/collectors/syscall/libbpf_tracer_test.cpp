// The compiled tracer (collectors/syscall/bpf) on the deterministic target: exactly the cohort's
// calls per phase, nothing of an unregistered twin running the same executable, forks followed
// in the kernel, canaries seen, and nothing kept between runs. Skipped, with the kernel's
// reason, where the tracer cannot load (no BTF, no privilege).
#include "libbpf_tracer.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "jbench/host_caps/tracefs.h"
#include "syscall_table.h"
#include "target_driver.h"
#include "temp_dir.h"

namespace jbench::collectors::syscall_detail {
namespace {

using Json = nlohmann::json;

// The calls the tracer counted for `pid` in `phase`, by name: {count, errors}.
std::map<std::string, std::pair<long, long>> counted(const RunEnd& t, pid_t pid, int phase) {
  std::map<std::string, std::pair<long, long>> out;
  for (const auto& [key, totals] : t.totals) {
    if (key.pid != pid || key.phase != phase) continue;
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
    std::string why;
    tracer_ = LibbpfTracer::open(why);
    if (!tracer_) GTEST_SKIP() << "the compiled tracer cannot load here: " << why;
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

TEST_F(LibbpfTracerTest, CountsExactlyTheCohortsCallsPerPhaseAndNothingOfAnUnregisteredTwin) {
  auto member = test::Target::spawn(dir_.path() + "/member");
  auto twin = test::Target::spawn(dir_.path() + "/twin");
  ASSERT_TRUE(member && twin);
  ASSERT_EQ(tracer_->begin_run({member->pid()}), "");
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
  ASSERT_EQ(tracer_->begin_run({member->pid()}), "");
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
  ASSERT_EQ(tracer_->begin_run({first->pid()}), "");
  first->work(2);
  (void)tracer_->end_run();
  auto second = test::Target::spawn(dir_.path() + "/second");
  ASSERT_TRUE(second);
  ASSERT_EQ(tracer_->begin_run({second->pid()}), "");
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

}  // namespace
}  // namespace jbench::collectors::syscall_detail
