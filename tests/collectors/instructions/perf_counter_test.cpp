// The perf backend of counted runs on a real process and the kernel's real counters. This host
// may have no processor counter (a VM without a virtual PMU), so the mechanism — a counter per
// worker from its registration, read at each phase boundary, a record per phase — is held to
// account with a software counter the kernel always has: page faults, of which the child makes a
// known number per phase. Where the processor's counter opens, it is also shown to count.
#include "jbench/collectors/instructions/perf_counter.h"

#include <gtest/gtest.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "jbench/collectors/instructions/instructions_collector.h"
#include "temp_dir.h"

namespace jbench::collectors {
namespace {

using nlohmann::json;

// A child that touches `n` fresh pages (n page faults) for each byte n it reads, answers with a
// byte, and leaves at end of input. Only system calls after fork.
class PageToucher {
 public:
  PageToucher() {
    int to[2], from[2];
    EXPECT_EQ(::pipe(to), 0);
    EXPECT_EQ(::pipe(from), 0);
    pid_ = ::fork();
    if (pid_ == 0) {
      ::close(to[1]);
      ::close(from[0]);
      unsigned char n = 0;
      while (::read(to[0], &n, 1) == 1) {
        const long page = ::sysconf(_SC_PAGESIZE);
        void* p =
            ::mmap(nullptr, n * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        for (long i = 0; i < n; ++i) static_cast<volatile char*>(p)[i * page] = 1;
        if (::write(from[1], &n, 1) != 1) break;
      }
      ::_exit(0);
    }
    ::close(to[0]);
    ::close(from[1]);
    to_ = to[1];
    from_ = from[0];
  }
  ~PageToucher() { end(); }
  pid_t pid() const { return pid_; }
  // Waits until the child has touched `n` pages.
  void touch(unsigned char n) const {
    ASSERT_EQ(::write(to_, &n, 1), 1);
    unsigned char ack = 0;
    ASSERT_EQ(::read(from_, &ack, 1), 1);
  }
  void end() {
    if (pid_ <= 0) return;
    ::close(to_);
    ::close(from_);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = 0;
  }

 private:
  pid_t pid_ = 0;
  int to_ = -1, from_ = -1;
};

PerfEvent page_faults() { return {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults"}; }

TEST(PerfCounter, counts_a_process_from_outside_and_reads_what_it_did_since) {
  PageToucher child;
  child.touch(1);  // its first copy-on-write faults after fork
  auto counter = PerfCounter::open(child.pid(), page_faults());
  ASSERT_TRUE(counter) << counter.error().message;
  const auto before = counter->read();
  ASSERT_TRUE(before);
  child.touch(200);
  const auto after = counter->read();
  ASSERT_TRUE(after);
  EXPECT_GE(after->value - before->value, 200u);
  EXPECT_LT(after->value - before->value, 220u);    // the pipe and the stack add a few
  EXPECT_EQ(after->running_ns, after->enabled_ns);  // a software counter is never multiplexed
}

TEST(PerfCounter, a_gone_process_or_an_absent_counter_is_refused_with_its_reason) {
  auto gone = PerfCounter::open(999'999'999, page_faults());
  ASSERT_FALSE(gone);
  EXPECT_NE(gone.error().message.find("perf_event_open(page-faults)"), std::string::npos);
  EXPECT_NE(gone.error().message.find("ESRCH"), std::string::npos) << gone.error().message;
  // The processor's counter: either it opens here, or the refusal says why.
  const auto hardware = PerfCounter::probe(instructions_event());
  if (!hardware) {
    EXPECT_NE(hardware.error().message.find("perf_event_open(instructions)"), std::string::npos)
        << hardware.error().message;
  }
}

// The records of a finished collector's raw file, by phase.
std::map<std::string, std::uint64_t> counts_by_phase(const std::string& run_dir) {
  std::ifstream in(run_dir + "/" + kInstructionsFile);
  std::map<std::string, std::uint64_t> out;
  std::string line;
  while (std::getline(in, line)) {
    const json r = json::parse(line);
    if (r["kind"] != "record") continue;
    EXPECT_EQ(r["worker"], 0) << line;
    out[r["phase"].get<std::string>()] = std::stoull(r["instructions"].get<std::string>());
  }
  return out;
}

TEST(PerfCounterCollector, gives_each_phase_its_own_count_from_the_readings_at_its_boundaries) {
  test::TempDir dir;
  RunContext context;
  context.run_dir = dir.path();
  context.run_id = "r";
  auto collector = make_perf_counter_collector(context, page_faults(), "perf: a test");
  ASSERT_TRUE(collector->prepare());
  PageToucher child;
  child.touch(1);  // its first copy-on-write faults after fork, before anything is counted
  const Member worker{0, child.pid(), 1};
  ASSERT_TRUE(collector->attach({&worker, 1}, 1, 0));
  child.touch(5);  // its canary
  ASSERT_TRUE(collector->verify(0));
  collector->boundary("warmup");
  child.touch(100);
  collector->boundary("measure");
  child.touch(250);
  collector->boundary("teardown");
  child.touch(20);
  child.end();
  const auto entries = collector->finish({{&worker, 1}, 1, 0, nullptr});
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].status, collectors::Status::ok) << entries[0].reason;
  EXPECT_EQ(entries[0].backend, "perf");
  EXPECT_EQ(entries[0].extra["chosen"], "perf: a test");
  const auto counts = counts_by_phase(dir.path());
  ASSERT_EQ(counts.size(), 4u);
  for (const auto& [phase, pages] : std::map<std::string, std::uint64_t>{
           {"startup", 5}, {"warmup", 100}, {"measure", 250}, {"teardown", 20}}) {
    EXPECT_GE(counts.at(phase), pages) << phase;
    EXPECT_LT(counts.at(phase), pages + 20) << phase;
  }
  // The summary folds the phases into the worker's incarnation; the run's figure is measure's.
  const json summary = instructions_summary(dir.path(), kInstructionsFile);
  ASSERT_EQ(summary["incarnations"].size(), 1u) << summary;
  EXPECT_EQ(summary["incarnations"][0]["phases"].size(), 4u) << summary;
  EXPECT_EQ(summary["source"], "perf");
  EXPECT_EQ(summary["event"], "page-faults");
  EXPECT_EQ(summary["measure_instructions"], std::to_string(counts.at("measure")));
  EXPECT_FALSE(summary.contains("measure_allocations"));  // perf counts no calls
}

TEST(PerfCounterCollector, a_worker_its_counter_never_saw_fails_attachment) {
  test::TempDir dir;
  RunContext context;
  context.run_dir = dir.path();
  auto collector = make_perf_counter_collector(context, page_faults(), "perf: a test");
  ASSERT_TRUE(collector->prepare());
  PageToucher child;
  // Its copy-on-write faults after fork done, and back in read() (the acknowledgement says so):
  // a child attached while still settling would move the counter without any canary.
  child.touch(1);
  const Member worker{0, child.pid(), 1};
  ASSERT_TRUE(collector->attach({&worker, 1}, 1, 0));
  // No canary: the child sits in read() and makes no fault.
  const auto verified = collector->verify(0);
  ASSERT_FALSE(verified);
  EXPECT_NE(verified.error().message.find("attachment not verified"), std::string::npos)
      << verified.error().message;
}

TEST(InstructionsCollector, the_backend_is_the_processors_counter_where_it_opens_else_callgrind) {
  test::TempDir dir;
  RunContext context;
  context.run_dir = dir.path();
  const bool hardware = static_cast<bool>(PerfCounter::probe(instructions_event()));
  // The choice is recorded whatever it was; finish() without a cohort still names the backend.
  auto chosen = make_instructions_collector(context)->finish({{}, 0, 0, nullptr});
  ASSERT_EQ(chosen.size(), 1u);
  EXPECT_EQ(chosen[0].backend, hardware ? "perf" : "callgrind");
  const std::string why = chosen[0].extra["chosen"];
  EXPECT_NE(why.find(hardware ? "counter opened" : "perf_event_open(instructions)"),
            std::string::npos)
      << why;
  context.counter_backend = "callgrind";
  EXPECT_EQ(make_instructions_collector(context)->finish({{}, 0, 0, nullptr})[0].backend,
            "callgrind");
  // Asked for the processor's counter where there is none: the run cannot start, and says why.
  context.counter_backend = "perf";
  const auto prepared = make_instructions_collector(context)->prepare();
  EXPECT_EQ(static_cast<bool>(prepared), hardware);
  if (!hardware) {
    EXPECT_NE(prepared.error().message.find("perf_event_open(instructions)"), std::string::npos)
        << prepared.error().message;
  }
}

}  // namespace
}  // namespace jbench::collectors
