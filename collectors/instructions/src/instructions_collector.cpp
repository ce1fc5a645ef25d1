#include "jbench/collectors/instructions/instructions_collector.h"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>

#include "instruction_records.h"
#include "jbench/collectors/instructions/callgrind_output.h"
#include "jbench/common/path_search.h"
#include "jbench/events/compressed_file.h"
#include "jbench/proc/run_tool.h"

namespace jbench::collectors {
namespace {

using Json = nlohmann::json;

constexpr const char* kDir = "raw/instructions";
constexpr const char* kNotSwitchedOn =
    "collection was never switched on: the program did not enter its measure phase through the "
    "trace bridge (jb_phase(\"measure\")), or it was built without <valgrind/callgrind.h>";

std::string exe_of(pid_t pid) {
  std::error_code ec;
  const auto target = std::filesystem::read_symlink(fmt::format("/proc/{}/exe", pid), ec);
  return ec ? std::string() : target.string();
}

class CallgrindCollector final : public Collector {
 public:
  CallgrindCollector(RunContext context, std::string choice)
      : context_(std::move(context)), choice_(std::move(choice)) {}

  jbench::Status prepare() override {
    valgrind_ = find_on_path("valgrind");
    if (valgrind_.empty()) {
      return collector_problem("instructions: no valgrind in PATH (sudo apt-get install valgrind)");
    }
    const proc::ToolRun version =
        proc::run_to_completion({valgrind_, "--version"}, std::nullopt, 5000);
    version_ = version.out.substr(0, version.out.find('\n'));
    if (version_.empty()) version_ = "valgrind (version unknown)";
    std::error_code ec;
    std::filesystem::create_directories(context_.run_dir + "/" + kDir, ec);
    if (ec) {
      return collector_problem(
          fmt::format("cannot create {}/{}: {}", context_.run_dir, kDir, ec.message()));
    }
    return {};
  }

  void wrap_command(std::size_t index, std::vector<std::string>& command) const override {
    std::vector<std::string> wrapped = callgrind_command(
        valgrind_, fmt::format("{}/{}/worker-{}.%p.callgrind", context_.run_dir, kDir, index));
    wrapped.insert(wrapped.end(), command.begin(), command.end());
    command = std::move(wrapped);
  }

  jbench::Status attach(std::span<const Member> cohort, std::size_t workers,
                        std::uint64_t /*deadline_ns*/) override {
    workers_.assign(workers, Member{});
    for (const Member& m : cohort) {
      if (m.worker && *m.worker < workers) workers_[*m.worker] = m;
    }
    return {};
  }

  // Every worker has made its canary call, so it runs its program by now: inside callgrind, the
  // process's executable is callgrind's own (valgrind execs its tool in the same process).
  jbench::Status verify(std::uint64_t /*deadline_ns*/) override {
    for (std::size_t i = 0; i < workers_.size(); ++i) {
      const std::string exe = exe_of(workers_[i].pid);
      if (exe.find("callgrind") == std::string::npos) {
        return collector_problem(
            fmt::format("attachment not verified: worker {} (pid {}) runs {}, not callgrind", i,
                        workers_[i].pid, exe.empty() ? "an unreadable executable" : exe));
      }
      entry_.canaries_seen.push_back(i);
    }
    entry_.attach_verified = true;
    return {};
  }

  std::vector<CollectorEntry> finish(const FinishContext& context) override {
    CollectorEntry& e = entry_;
    describe_instruction_entry(e, "callgrind", context.attached_ns, choice_, version_);
    e.extra["valgrind"] = valgrind_;
    e.extra["counted"] =
        "instructions executed (callgrind's Ir) and calls into the C library's allocation "
        "functions, from the bridge's measure phase to the next phase";
    e.extra["proof"] = "each worker's process ran callgrind's executable before release";
    std::vector<Json> records;
    Json kept = Json::array();
    for (std::size_t i = 0; i < workers_.size(); ++i) {
      const Member& m = workers_[i];
      const std::string name = fmt::format("{}/worker-{}.{}.callgrind", kDir, i, m.pid);
      const std::string path = context_.run_dir + "/" + name;
      if (::access(path.c_str(), F_OK) != 0) {
        e.fail(
            fmt::format("worker {} (pid {}) left no callgrind output {}: it did not exit "
                        "normally",
                        i, m.pid, name));
        continue;
      }
      const auto totals = read_callgrind_totals(path);
      kept.push_back(events::keep_compressed(context_.run_dir, name));
      if (!totals || !totals->instructions()) {
        e.fail(fmt::format("{}: no Ir total in callgrind's output {}", name,
                           totals ? "" : totals.error().message));
        continue;
      }
      if (*totals->instructions() == 0) {
        e.fail(fmt::format("worker {}: {}", i, kNotSwitchedOn));
        continue;
      }
      records.push_back(
          instruction_record(m, i, "measure",
                             {{"event", "Ir"},
                              {"instructions", std::to_string(*totals->instructions())},
                              {"allocations", std::to_string(totals->allocations)},
                              {"callgrind", kept.back()}}));
    }
    e.extra["callgrind_files"] = kept;
    e.records = records.size();
    e.ended = Ended::exit(0);
    if (const jbench::Status written = write_records(records); !written) {
      e.fail(written.error().message);
    }
    e.raw = {kInstructionsFile};
    collectors::finish(e, workers_.size());  // the one status rule (api/status.h)
    return {e};
  }

 private:
  jbench::Status write_records(const std::vector<Json>& records) const {
    return write_instruction_records(
        context_, "callgrind", version_,
        {{"t_ns", "ns"}, {"instructions", "count"}, {"allocations", "calls"}}, records);
  }
  RunContext context_;
  std::string choice_;  // why this backend counts (see make_instructions_collector)
  std::string valgrind_;
  std::string version_;
  std::vector<Member> workers_;
  CollectorEntry entry_;
};

}  // namespace

Availability instructions_host_check(const HostOffer& host) {
  const Json& caps = host.capabilities;
  const Json* callgrind = nullptr;
  if (const auto checks = caps.find("checks"); checks != caps.end() && checks->is_array()) {
    for (const Json& c : *checks) {
      // Either counter will do: the processor's, or callgrind's.
      const std::string name = c.value("name", "");
      if ((name == "instructions_counter" || name == "callgrind") &&
          c.value("status", "") == "available") {
        return {};
      }
      if (name == "callgrind") callgrind = &c;
    }
  }
  if (callgrind == nullptr) {
    return {false, "instructions: the host's probe has no callgrind check",
            "run `jbench doctor` and follow its remediation"};
  }
  return {false,
          "instructions: no processor counter, and " +
              callgrind->value("detail", std::string("callgrind not available")),
          callgrind->value("remediation", std::string("sudo apt-get install valgrind"))};
}

std::unique_ptr<Collector> make_instructions_collector(const RunContext& context) {
  if (context.counter_backend == "callgrind") {
    return std::make_unique<CallgrindCollector>(context, "callgrind: asked for");
  }
  const PerfEvent event = instructions_event();
  const jbench::Status counter = PerfCounter::probe(event);
  if (counter) {
    return make_perf_counter_collector(context, event,
                                       "perf: the processor's instructions counter opened");
  }
  if (context.counter_backend == "perf") {
    // Asked for and not here: prepare() fails the run with why.
    return make_perf_counter_collector(context, event, "perf: asked for");
  }
  return std::make_unique<CallgrindCollector>(
      context,
      "callgrind: the processor's counter is not available here (" + counter.error().message + ")");
}

}  // namespace jbench::collectors
