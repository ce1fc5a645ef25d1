#include "jbench/collectors/instructions/instructions_collector.h"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "jbench/collectors/instructions/callgrind_output.h"
#include "jbench/common/clock.h"
#include "jbench/common/path_search.h"
#include "jbench/events/compressed_file.h"
#include "jbench/events/event_file.h"
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

class InstructionsCollector final : public Collector {
 public:
  explicit InstructionsCollector(RunContext context) : context_(std::move(context)) {}

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
    e.name = "instructions";
    e.backend = "callgrind";
    e.setting = "on";
    e.started_ns = e.attached_ns = context.attached_ns;
    e.extra["source"] = "callgrind";
    e.extra["valgrind"] = valgrind_;
    e.extra["version"] = version_;
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
      std::string error;
      const auto totals = read_callgrind_totals(path, error);
      kept.push_back(events::keep_compressed(context_.run_dir, name));
      if (!totals || !totals->instructions()) {
        e.fail(fmt::format("{}: no Ir total in callgrind's output {}", name, error));
        continue;
      }
      if (*totals->instructions() == 0) {
        e.fail(fmt::format("worker {}: {}", i, kNotSwitchedOn));
        continue;
      }
      records.push_back({{"kind", "record"},
                         {"type", "instructions"},
                         {"seq", "0"},
                         {"pid", m.pid},
                         {"start_time_ticks", std::to_string(m.start_time_ticks)},
                         {"tid", m.pid},
                         {"t_ns", std::to_string(monotonic_ns())},  // when it was read
                         {"worker", i},
                         {"phase", "measure"},
                         {"event", "Ir"},
                         {"instructions", std::to_string(*totals->instructions())},
                         {"allocations", std::to_string(totals->allocations)},
                         {"callgrind", kept.back()}});
    }
    e.extra["callgrind_files"] = kept;
    e.records = records.size();
    e.ended = Ended::exit(0);
    if (auto problem = write_records(records); !problem.empty()) e.fail(problem);
    e.raw = {kInstructionsFile};
    collectors::finish(e, workers_.size());  // the one status rule (api/status.h)
    return {e};
  }

 private:
  std::string write_records(const std::vector<Json>& records) const {
    std::ofstream out(context_.run_dir + "/" + kInstructionsFile);
    out << Json{{"kind", "header"},
                {"schema", kEventSchema},
                {"schema_version", kEventSchemaVersion},
                {"collector", "instructions"},
                {"backend", "callgrind"},
                {"backend_version", version_},
                {"clock", "CLOCK_MONOTONIC"},
                {"units", {{"t_ns", "ns"}, {"instructions", "count"}, {"allocations", "calls"}}},
                {"run_id", context_.run_id},
                {"boot_id", context_.boot_id}}
               .dump()
        << '\n';
    for (const Json& r : records) out << r.dump() << '\n';
    out << Json{{"kind", "trailer"},
                {"records", records.size()},
                {"dropped", 0},
                {"malformed", 0},
                {"ended", {{"how", "exit"}, {"code", 0}}}}
               .dump()
        << '\n';
    out.close();
    return out ? std::string() : fmt::format("cannot write {}", kInstructionsFile);
  }
  RunContext context_;
  std::string valgrind_;
  std::string version_;
  std::vector<Member> workers_;
  CollectorEntry entry_;
};

}  // namespace

Availability instructions_host_check(const HostOffer& host) {
  const Json& caps = host.capabilities;
  if (const auto checks = caps.find("checks"); checks != caps.end() && checks->is_array()) {
    for (const Json& c : *checks) {
      if (c.value("name", "") != "callgrind") continue;
      if (c.value("status", "") == "available") return {};
      return {false, "instructions: " + c.value("detail", std::string("callgrind not available")),
              c.value("remediation", std::string("sudo apt-get install valgrind"))};
    }
  }
  return {false, "instructions: the host's probe has no callgrind check",
          "run `jbench doctor` and follow its remediation"};
}

std::unique_ptr<Collector> make_instructions_collector(const RunContext& context) {
  return std::make_unique<InstructionsCollector>(context);
}

}  // namespace jbench::collectors
