// The perf backend of the instructions collector (instructions_collector.h): a processor counter
// on every worker from its registration, read at each phase boundary, and once more when the
// cohort is gone; a phase's count is the difference of the readings around it.
#include <fmt/format.h>
#include <sys/utsname.h>

#include <filesystem>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "instruction_records.h"
#include "jbench/collectors/api/phases.h"
#include "jbench/collectors/instructions/instructions_collector.h"

namespace jbench::collectors {
namespace {

using Json = nlohmann::json;

struct CountedWorker {
  Member member;
  std::optional<PerfCounter> counter;
  std::map<std::string, PerfReading, std::less<>> at;  // the reading as each phase began
};

Result<PerfReading> reading(const CountedWorker& w) {
  if (!w.counter) return collector_problem("no counter was opened on it");
  return w.counter->read();
}

std::string kernel_release() {
  utsname u{};
  return ::uname(&u) == 0 ? fmt::format("perf_event (Linux {})", u.release) : "perf_event";
}

class PerfCounterCollector final : public Collector {
 public:
  PerfCounterCollector(RunContext context, PerfEvent event, std::string choice)
      : context_(std::move(context)), event_(event), choice_(std::move(choice)) {}

  jbench::Status prepare() override {
    std::error_code ec;
    std::filesystem::create_directories(context_.run_dir + "/raw", ec);
    if (ec) return collector_problem(fmt::format("cannot create {}/raw", context_.run_dir));
    if (auto opened = PerfCounter::probe(event_); !opened) {
      return collector_problem("instructions: " + opened.error().message);
    }
    return {};
  }

  jbench::Status attach(std::span<const Member> cohort, std::size_t workers,
                        std::uint64_t /*deadline_ns*/) override {
    workers_.clear();
    workers_.resize(workers);
    for (const Member& m : cohort) {
      if (!m.worker || *m.worker >= workers) continue;
      CountedWorker& w = workers_[*m.worker];
      w.member = m;
      auto counter = PerfCounter::open(m.pid, event_);
      if (!counter) return counter.error().within("instructions");
      w.counter.emplace(std::move(counter.value()));
    }
    mark("startup");
    return {};
  }

  // Every worker has made its canary call since its counter opened: a counter that did not move
  // is not counting that worker.
  jbench::Status verify(std::uint64_t /*deadline_ns*/) override {
    for (std::size_t i = 0; i < workers_.size(); ++i) {
      const auto now = reading(workers_[i]);
      if (!now || now->value == 0) {
        return collector_problem(fmt::format(
            "attachment not verified: worker {}'s {} counter did not move by its canary ({})", i,
            event_.name, now ? "0 counted" : now.error().message));
      }
      entry_.canaries_seen.push_back(i);
    }
    entry_.attach_verified = true;
    return {};
  }

  void boundary(std::string_view phase) override { mark(std::string(phase)); }

  std::vector<CollectorEntry> finish(const FinishContext& context) override {
    CollectorEntry& e = entry_;
    const std::string version = kernel_release();
    describe_instruction_entry(e, "perf", context.attached_ns, choice_, version);
    e.extra["event"] = event_.name;
    e.extra["counted"] = fmt::format(
        "{} in user space (perf_event_open), per worker and phase: each phase's count is the "
        "difference of the readings at its boundaries",
        event_.name);
    e.extra["proof"] = "each worker's counter moved by its canary call before release";
    std::vector<Json> records;
    for (std::size_t i = 0; i < workers_.size(); ++i) add_records(i, records);
    e.records = records.size();
    e.ended = Ended::exit(0);
    if (const jbench::Status written = write_instruction_records(
            context_, "perf", version, {{"t_ns", "ns"}, {"instructions", "count"}}, records);
        !written) {
      e.fail(written.error().message);
    }
    e.raw = {kInstructionsFile};
    collectors::finish(e, workers_.size());  // the one status rule (api/status.h)
    return {e};
  }

 private:
  void mark(const std::string& phase) {
    for (std::size_t i = 0; i < workers_.size(); ++i) {
      auto r = reading(workers_[i]);
      if (r) {
        workers_[i].at[phase] = *r;
      } else {
        entry_.fail(
            fmt::format("worker {}: no reading as {} began: {}", i, phase, r.error().message));
      }
    }
  }

  // A record per phase the worker went through, from the readings around it; the final reading
  // is taken now, with every thread it started folded in.
  void add_records(std::size_t index, std::vector<Json>& records) {
    CountedWorker& w = workers_[index];
    const auto last = reading(w);
    if (!last) {
      entry_.fail(
          fmt::format("worker {}: its last reading failed: {}", index, last.error().message));
      return;
    }
    if (last->running_ns < last->enabled_ns) {
      // Multiplexed with other counters: it counted only part of the time, and a scaled guess
      // is no count.
      entry_.fail(
          fmt::format("worker {}: the {} counter ran {} of the {} ns it was enabled "
                      "(the kernel shared it with other counters)",
                      index, event_.name, last->running_ns, last->enabled_ns));
      return;
    }
    if (!w.at.contains("measure") || !w.at.contains("teardown")) {
      entry_.fail(fmt::format("worker {}: the run never went through its measure phase", index));
      return;
    }
    // Each phase the worker went through ends where the next one it went through began; the
    // last, where the cohort was gone.
    // Each phase is opened by the boundary of its name (startup by attach).
    std::vector<std::pair<std::string_view, std::uint64_t>> began;
    for (const std::string_view phase : kPhases) {
      if (const auto it = w.at.find(phase); it != w.at.end()) {
        began.emplace_back(phase, it->second.value);
      }
    }
    for (std::size_t p = 0; p < began.size(); ++p) {
      const std::uint64_t until = p + 1 < began.size() ? began[p + 1].second : last->value;
      records.push_back(instruction_record(
          w.member, index, std::string(began[p].first),
          {{"event", event_.name}, {"instructions", std::to_string(until - began[p].second)}}));
    }
  }

  RunContext context_;
  PerfEvent event_;
  std::string choice_;
  std::vector<CountedWorker> workers_;
  CollectorEntry entry_;
};

}  // namespace

std::unique_ptr<Collector> make_perf_counter_collector(const RunContext& context,
                                                       const PerfEvent& event, std::string choice) {
  return std::make_unique<PerfCounterCollector>(context, event, std::move(choice));
}

}  // namespace jbench::collectors
