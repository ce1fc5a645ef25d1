// The cpu collector on real processes: a shell that burns CPU only in the phase it is told to,
// while an unrelated busy process runs beside it.
#include "jbench/collectors/cpu/cpu_accounting.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <functional>
#include <string>

#include "jbench/proc/child_process.h"
#include "jbench/proc/proc_stat.h"

namespace jbench::collectors {
namespace {

using nlohmann::json;

// The summary of readings that must be readable (null, a failure recorded, when they are not).
json summary_of(const json& readings) {
  auto summary = cpu_summary(readings);
  if (!summary) ADD_FAILURE() << summary.error().message;
  return summary ? std::move(*summary) : json();
}

// Why the readings cannot be summarized; "" when they can.
std::string refusal_of(const json& readings) {
  const auto summary = cpu_summary(readings);
  return summary ? "" : summary.error().message;
}

// Waits for one line from the child (bounded).
std::string await_line(proc::ChildProcess& p) {
  std::vector<std::string> lines;
  bool overlong = false;
  for (int i = 0; i < 1000 && lines.empty(); ++i) {
    if (!p.read_lines(lines, overlong)) break;
    if (lines.empty()) poll(nullptr, 0, 10);
  }
  return lines.empty() ? "" : lines.front();
}

std::unique_ptr<proc::ChildProcess> spawn_sh(const std::string& script) {
  proc::SpawnSpec spec;
  spec.executable = "/bin/sh";
  spec.args = {"-c", script};
  auto s = proc::ChildProcess::spawn(spec);
  EXPECT_TRUE(s) << s.error().message;
  return s ? std::move(*s) : nullptr;
}

// Burns CPU when it reads "burn", says "done", exits on "exit".
constexpr const char* kWorker =
    "while read cmd; do case $cmd in burn) i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; "
    "echo done;; exit) exit 0;; esac; done";

std::uint64_t phase_ns(const json& incarnation, const char* phase) {
  return std::stoull(incarnation["phases"][phase]["cpu_ns"].get<std::string>());
}

TEST(CpuAccounting, ChargesEachPhaseOnlyWhatTheIncarnationDidInIt) {
  auto worker = spawn_sh(kWorker);
  auto bystander = spawn_sh("while :; do :; done");  // busy throughout, never tracked
  const auto stat = proc::read_proc_stat(worker->pid());
  ASSERT_TRUE(stat);
  CpuAccounting cpu;
  cpu.track(0, worker->pid(), stat->start_time_ticks);
  cpu.boundary("warmup");
  cpu.boundary("measure");
  const jbench::Status burning = worker->write_line("burn", 1000);
  ASSERT_TRUE(burning) << burning.error().message;
  ASSERT_EQ(await_line(*worker), "done");
  cpu.boundary("teardown");
  const jbench::Status exiting = worker->write_line("exit", 1000);
  ASSERT_TRUE(exiting) << exiting.error().message;
  proc::ExitStatus status;
  for (int i = 0; i < 500 && !worker->reaped(); ++i) {
    if (!worker->try_reap()) poll(nullptr, 0, 10);
  }
  ASSERT_TRUE(worker->reaped());
  status = *worker->status();
  cpu.exited(worker->pid(), {status.user_ns, status.system_ns, status.voluntary_switches,
                             status.involuntary_switches});
  bystander->kill_and_reap();

  const CollectorEntry e = cpu.finish(1, 1);
  EXPECT_EQ(e.status, kOk) << e.reason;
  EXPECT_EQ(e.canaries_seen, std::vector<std::size_t>{0});
  const json s = summary_of(cpu.readings());
  ASSERT_TRUE(s.is_object());
  ASSERT_EQ(s["incarnations"].size(), 1u);
  const json& inc = s["incarnations"][0];
  const std::uint64_t measure = phase_ns(inc, "measure");
  const std::uint64_t warmup = phase_ns(inc, "warmup");
  const std::uint64_t total = std::stoull(inc["total"]["cpu_ns"].get<std::string>());
  // The burn happened in measure: it dominates, and warmup (nothing happened) is tiny.
  EXPECT_GT(measure, 50'000'000u);
  EXPECT_LT(warmup, measure / 20);
  // Phases partition the exact total (wait4's figure, to within its microsecond resolution).
  std::uint64_t sum = 0;
  for (const char* p : {"startup", "warmup", "measure", "teardown"}) sum += phase_ns(inc, p);
  EXPECT_LE(sum > total ? sum - total : total - sum, 1'000'000u);
  // The bystander burned a whole core meanwhile; none of it is ours.
  EXPECT_LT(total, measure + 50'000'000u);
}

// Two busy processes pinned to one CPU: each waits for it while the other runs, and the kernel's
// accounting says so — each is runnable for about the time the other was on the CPU.
TEST(CpuAccounting, TwoBusyProcessesOnOneCpuAreEachRunnableWhileTheOtherRuns) {
  auto a = spawn_sh("while :; do :; done");
  auto b = spawn_sh("while :; do :; done");
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(0, &one);
  ASSERT_EQ(sched_setaffinity(a->pid(), sizeof one, &one), 0);
  ASSERT_EQ(sched_setaffinity(b->pid(), sizeof one, &one), 0);
  const auto ticks_a = proc::read_proc_stat(a->pid())->start_time_ticks;
  const auto ticks_b = proc::read_proc_stat(b->pid())->start_time_ticks;
  const auto a0 = read_cpu_sample(a->pid(), ticks_a);
  const auto b0 = read_cpu_sample(b->pid(), ticks_b);
  ASSERT_TRUE(a0 && b0);
  ASSERT_TRUE(a0->runnable_ns && b0->runnable_ns) << "this kernel keeps no schedstat";
  // Until both have run 200 ms of CPU since the first reading (an event, not a duration).
  std::optional<CpuSample> a1, b1;
  for (int i = 0; i < 3000; ++i) {
    a1 = read_cpu_sample(a->pid(), ticks_a);
    b1 = read_cpu_sample(b->pid(), ticks_b);
    ASSERT_TRUE(a1 && b1);
    if (a1->cpu_ns - a0->cpu_ns > 200'000'000 && b1->cpu_ns - b0->cpu_ns > 200'000'000) break;
    poll(nullptr, 0, 10);
  }
  a->kill_and_reap();
  b->kill_and_reap();
  const double on_a = static_cast<double>(a1->cpu_ns - a0->cpu_ns);
  const double on_b = static_cast<double>(b1->cpu_ns - b0->cpu_ns);
  ASSERT_GT(on_a, 2e8);
  ASSERT_GT(on_b, 2e8);
  const double waited_a = static_cast<double>(*a1->runnable_ns - *a0->runnable_ns);
  const double waited_b = static_cast<double>(*b1->runnable_ns - *b0->runnable_ns);
  // Each waited at least about as long as the other ran (more if anything else used CPU 0).
  EXPECT_GT(waited_a, 0.6 * on_b);
  EXPECT_GT(waited_b, 0.6 * on_a);
}

TEST(CpuAccounting, AnIncarnationThatEndsEarlyIsClosedByItsExitTotals) {
  auto worker = spawn_sh(kWorker);
  const auto stat = proc::read_proc_stat(worker->pid());
  ASSERT_TRUE(stat);
  CpuAccounting cpu;
  cpu.track(0, worker->pid(), stat->start_time_ticks);
  const auto status = worker->kill_and_reap();
  cpu.boundary("warmup");
  cpu.boundary("measure");
  cpu.exited(worker->pid(), {status.user_ns, status.system_ns, status.voluntary_switches,
                             status.involuntary_switches});
  const CollectorEntry e = cpu.finish(1, 1);
  EXPECT_EQ(e.status, kOk) << e.reason;
  const json s = summary_of(cpu.readings());
  ASSERT_TRUE(s.is_object());
  const json& phases = s["incarnations"][0]["phases"];
  EXPECT_TRUE(phases.contains("startup"));  // died in startup: everything is charged there
  EXPECT_FALSE(phases.contains("warmup"));
  EXPECT_EQ(s["incarnations"][0]["total"]["source"], "wait4");
}

TEST(CpuAccounting, WithoutExitTotalsTheCollectorFails) {
  auto worker = spawn_sh(kWorker);
  const auto stat = proc::read_proc_stat(worker->pid());
  ASSERT_TRUE(stat);
  CpuAccounting cpu;
  cpu.track(0, worker->pid(), stat->start_time_ticks);
  worker->kill_and_reap();
  cpu.boundary("warmup");
  const CollectorEntry e = cpu.finish(1, 1);
  EXPECT_EQ(e.status, kCollectorFailed);
  EXPECT_NE(e.reason.find("no exact totals"), std::string::npos) << e.reason;
}

TEST(CpuAccounting, AnotherIncarnationUnderTheSamePidIsNotRead) {
  auto worker = spawn_sh(kWorker);
  const auto stat = proc::read_proc_stat(worker->pid());
  ASSERT_TRUE(stat);
  EXPECT_TRUE(read_cpu_sample(worker->pid(), stat->start_time_ticks));
  EXPECT_FALSE(read_cpu_sample(worker->pid(), stat->start_time_ticks + 1));
  worker->kill_and_reap();
}

// This test's own process, read as the collector reads a worker: the pages it touches and the
// bytes it writes between two readings are in the difference, to the page and the byte (the
// only other work between the readings is the readings').
TEST(CpuAccounting, PageFaultsAndBytesWrittenAreTheThreadGroupsOwn) {
  const auto self = proc::read_proc_stat(getpid());
  ASSERT_TRUE(self);
  constexpr std::size_t kPages = 1000;
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void* memory =
      mmap(nullptr, kPages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(memory, MAP_FAILED);
  // One fault per page: a host whose transparent huge pages are always on would map 2 MiB at once.
  ASSERT_EQ(madvise(memory, kPages * page, MADV_NOHUGEPAGE), 0);
  char path[] = "/tmp/jbench-cpu-io-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  unlink(path);
  const std::string block(10'000, 'x');

  const auto before = read_cpu_sample(getpid(), self->start_time_ticks);
  ASSERT_TRUE(before);
  ASSERT_TRUE(before->io) << "/proc/self/io is not readable here";
  for (std::size_t i = 0; i < kPages; ++i) static_cast<volatile char*>(memory)[i * page] = 1;
  for (int i = 0; i < 10; ++i) ASSERT_EQ(write(fd, block.data(), block.size()), 10'000);
  const auto after = read_cpu_sample(getpid(), self->start_time_ticks);
  ASSERT_TRUE(after && after->io);
  close(fd);
  munmap(memory, kPages * page);

  EXPECT_GE(after->minor_faults - before->minor_faults, kPages);
  EXPECT_LT(after->minor_faults - before->minor_faults, kPages + 200);
  // Reading /proc goes through read(2) too: rchar grows by what the readings read, wchar only by
  // what this test wrote.
  EXPECT_EQ(after->io->written_chars - before->io->written_chars, 100'000u);
  EXPECT_GT(after->io->read_chars, before->io->read_chars);
}

TEST(CpuAccounting, ProcIoIsParsedOrRefusedWhole) {
  const std::string text =
      "rchar: 5\nwchar: 6\nsyscr: 1\nsyscw: 2\nread_bytes: 4096\nwrite_bytes: 8192\n"
      "cancelled_write_bytes: 0\n";
  const auto io = parse_proc_io(text);
  ASSERT_TRUE(io);
  EXPECT_EQ(io->read_chars, 5u);
  EXPECT_EQ(io->written_chars, 6u);
  EXPECT_EQ(io->storage_read_bytes, 4096u);
  EXPECT_EQ(io->storage_written_bytes, 8192u);
  EXPECT_FALSE(parse_proc_io("rchar: 5\nwchar: 6\n"));
  EXPECT_FALSE(parse_proc_io("rchar: x\nwchar: 6\nread_bytes: 1\nwrite_bytes: 2\n"));
}

// A readings document as the collector writes it, with one worker that lived through every phase.
json readings_document() {
  const auto reading = [](const char* began, int cpu_ms) {
    return json{{"began", began},
                {"cpu_ns", std::to_string(cpu_ms * 1'000'000)},
                {"user_ticks", "1"},
                {"system_ticks", "2"},
                {"voluntary_switches", 3},
                {"involuntary_switches", 4},
                {"threads", 1},
                {"on_cpu_ns", std::to_string(cpu_ms * 900'000)},
                {"runnable_ns", std::to_string(cpu_ms * 100'000)},
                {"minor_faults", cpu_ms * 10},
                {"major_faults", cpu_ms},
                {"read_chars", std::to_string(cpu_ms * 1000)},
                {"written_chars", std::to_string(cpu_ms * 2000)},
                {"storage_read_bytes", "0"},
                {"storage_written_bytes", std::to_string(cpu_ms * 4096)}};
  };
  return {{"schema", "jbench.cpu_readings"},
          {"schema_version", 1},
          {"clock_ticks_per_second", 100},
          {"incarnations",
           {{{"worker", 0},
             {"pid", 42},
             {"start_time_ticks", "7"},
             {"readings",
              {reading("registered", 1), reading("warmup", 2), reading("measure", 3),
               reading("teardown", 9)}},
             {"exit",
              {{"user_ns", "6000000"},
               {"system_ns", "4000000"},
               {"voluntary_switches", 5},
               {"involuntary_switches", 6},
               {"source", "wait4"}}}}}}};
}

TEST(CpuSummary, SplitsAnIncarnationIntoItsPhases) {
  const json s = summary_of(readings_document());
  ASSERT_TRUE(s.is_object());
  const json& phases = s["incarnations"][0]["phases"];
  EXPECT_EQ(phases["startup"]["cpu_ns"], "2000000");
  EXPECT_EQ(phases["measure"]["cpu_ns"], "6000000");
  EXPECT_EQ(phases["teardown"]["cpu_ns"], "1000000");     // to the exit totals: 10 ms in all
  EXPECT_EQ(phases["startup"]["system_ns"], "20000000");  // 2 ticks at 100 per second
}

TEST(CpuSummary, SchedulerTimesAreSplitIntoPhasesAndUnknownWhereAReadingHasNone) {
  const json s = summary_of(readings_document());
  ASSERT_TRUE(s.is_object());
  const json& phases = s["incarnations"][0]["phases"];
  EXPECT_EQ(phases["startup"]["runnable_ns"], "200000");
  EXPECT_EQ(phases["measure"]["runnable_ns"], "600000");
  EXPECT_EQ(phases["measure"]["on_cpu_ns"], "5400000");
  EXPECT_TRUE(phases["teardown"]["runnable_ns"].is_null());  // wait4 reports no such total
  EXPECT_TRUE(phases["teardown"]["on_cpu_ns"].is_null());
  // A reading without it (a host without schedstat, or an earlier bundle): not known, not zero.
  json doc = readings_document();
  doc["incarnations"][0]["readings"][2]["runnable_ns"] = nullptr;
  const json t = summary_of(doc);
  ASSERT_TRUE(t.is_object());
  EXPECT_EQ(t["incarnations"][0]["phases"]["startup"]["runnable_ns"], "200000");
  EXPECT_TRUE(t["incarnations"][0]["phases"]["warmup"]["runnable_ns"].is_null());
  EXPECT_TRUE(t["incarnations"][0]["phases"]["measure"]["runnable_ns"].is_null());
  // Readings of an earlier version have no such field, and their summary none either.
  json earlier = readings_document();
  for (auto& r : earlier["incarnations"][0]["readings"]) {
    r.erase("runnable_ns");
    r.erase("on_cpu_ns");
  }
  const json u = summary_of(earlier);
  ASSERT_TRUE(u.is_object());
  for (const auto& [name, phase] : u["incarnations"][0]["phases"].items()) {
    EXPECT_FALSE(phase.contains("runnable_ns")) << name;
    EXPECT_FALSE(phase.contains("on_cpu_ns")) << name;
  }
  doc["incarnations"][0]["readings"][1]["runnable_ns"] = "-5";
  EXPECT_EQ(refusal_of(doc),
            "raw/cpu.readings.json: /incarnations/0/readings/1/runnable_ns is not a non-negative "
            "integer");
}

TEST(CpuSummary, FaultsAndBytesAreSplitIntoPhasesAndUnknownWhereAReadingHasNone) {
  const json s = summary_of(readings_document());
  ASSERT_TRUE(s.is_object());
  const json& phases = s["incarnations"][0]["phases"];
  EXPECT_EQ(phases["startup"]["minor_faults"], 20);  // from the process's start
  EXPECT_EQ(phases["measure"]["minor_faults"], 60);
  EXPECT_EQ(phases["measure"]["major_faults"], 6);
  EXPECT_EQ(phases["measure"]["read_chars"], "6000");
  EXPECT_EQ(phases["measure"]["written_chars"], "12000");
  EXPECT_EQ(phases["measure"]["storage_written_bytes"], "24576");
  for (const char* key : {"minor_faults", "read_chars", "storage_written_bytes"}) {
    EXPECT_TRUE(phases["teardown"][key].is_null()) << key;  // jbench keeps none from wait4
  }
  EXPECT_TRUE(s["units"].contains("read_chars"));
  // /proc/<pid>/io unreadable at the measure boundary: the phases on either side do not know.
  json doc = readings_document();
  doc["incarnations"][0]["readings"][2]["written_chars"] = nullptr;
  const json t = summary_of(doc);
  ASSERT_TRUE(t.is_object());
  EXPECT_TRUE(t["incarnations"][0]["phases"]["warmup"]["written_chars"].is_null());
  EXPECT_TRUE(t["incarnations"][0]["phases"]["measure"]["written_chars"].is_null());
  EXPECT_EQ(t["incarnations"][0]["phases"]["measure"]["read_chars"], "6000");
  // Readings of an earlier version have none of them, and their summary none either.
  json earlier = readings_document();
  for (auto& r : earlier["incarnations"][0]["readings"]) {
    for (const char* key : {"minor_faults", "major_faults", "read_chars", "written_chars",
                            "storage_read_bytes", "storage_written_bytes"}) {
      r.erase(key);
    }
  }
  const json u = summary_of(earlier);
  ASSERT_TRUE(u.is_object());
  EXPECT_FALSE(u["units"].contains("read_chars"));
  for (const auto& [name, phase] : u["incarnations"][0]["phases"].items()) {
    EXPECT_FALSE(phase.contains("minor_faults")) << name;
    EXPECT_FALSE(phase.contains("written_chars")) << name;
  }
  doc["incarnations"][0]["readings"][1]["major_faults"] = -2;
  EXPECT_EQ(refusal_of(doc),
            "raw/cpu.readings.json: /incarnations/0/readings/1/major_faults is not a non-negative "
            "integer");
}

// A field that is missing, renamed or of the wrong type is never read as zero.
TEST(CpuSummary, RefusesAReadingWithAMissingOrMistypedField) {
  const std::vector<std::pair<std::function<void(json&)>, std::string>> damages = {
      {[](json& d) { d["incarnations"][0]["readings"][1].erase("system_ticks"); },
       "/incarnations/0/readings/1/system_ticks is missing"},
      {[](json& d) {
         auto& r = d["incarnations"][0]["readings"][2];
         r["thread_count"] = r["threads"];
         r.erase("threads");
       },
       "/incarnations/0/readings/2/threads is missing"},
      {[](json& d) { d["incarnations"][0]["exit"]["user_ns"] = -1; },
       "/incarnations/0/exit/user_ns is not a non-negative integer"},
      {[](json& d) { d.erase("clock_ticks_per_second"); }, "/clock_ticks_per_second is missing"},
      {[](json& d) { d["incarnations"][0].erase("exit"); }, "/incarnations/0/exit is missing"},
  };
  for (const auto& [damage, expected] : damages) {
    json doc = readings_document();
    damage(doc);
    EXPECT_EQ(refusal_of(doc), "raw/cpu.readings.json: " + expected);
  }
}

}  // namespace
}  // namespace jbench::collectors
