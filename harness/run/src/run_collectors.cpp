#include "run_collectors.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "jbench/collect/summaries.h"
#include "jbench/collectors/syscall_collector.h"
#include "jbench/common/clock.h"

namespace jbench::run {

using Json = nlohmann::json;

namespace {
// How long the syscall backend may take to stop and flush after the cohort is gone.
constexpr std::uint64_t kStopWaitNs = 10'000'000'000ULL;
// Where its summary (aggregated at the source in light mode) is kept.
constexpr const char* kSyscallSummaryFile = "raw/syscall.summary.json";
}  // namespace

RunCollectors::RunCollectors(CollectorsSetup setup)
    : setup_(std::move(setup)), plans_(collect::collectors_for(setup_.mode, setup_.workload_kind)) {
  bridge_files_.run_dir = setup_.run_dir;
}

RunCollectors::~RunCollectors() = default;

bool RunCollectors::requested(std::string_view name) const {
  return std::any_of(plans_.begin(), plans_.end(), [&](const collect::CollectorPlan& p) {
    return p.name == name && p.requested;
  });
}

bool RunCollectors::preloads_alloc() const {
  return requested("alloc") && !collect::samples_allocations_in_runtime(setup_.workload_kind) &&
         !setup_.alloc_library.empty();
}

std::string RunCollectors::prepare() {
  for (const char* dir : {"bridge", "alloc"}) {
    if (std::string_view(dir) == "bridge" ? !requested("bridge") : !preloads_alloc()) continue;
    std::error_code ec;
    std::filesystem::create_directories(setup_.run_dir + "/raw/" + dir, ec);
    if (ec) return fmt::format("cannot create {}/raw/{}: {}", setup_.run_dir, dir, ec.message());
  }
  return {};
}

std::vector<std::pair<std::string, std::string>> RunCollectors::worker_env(
    std::size_t index) const {
  // The mode is always said, "off" included, so a worker never inherits one from jbench's own
  // environment.
  std::vector<std::pair<std::string, std::string>> env = {
      {"JBENCH_BRIDGE_MODE", std::string(collect::bridge_mode_for(setup_.mode))}};
  if (requested("bridge")) {
    env.emplace_back("JBENCH_BRIDGE_OUT", setup_.run_dir + "/" + collect::bridge_file_for(index));
    env.emplace_back("JBENCH_BOOT_ID", setup_.boot_id);
  }
  if (preloads_alloc()) {
    // Only the cohort is preloaded: the harness and any other process never are.
    env.emplace_back("LD_PRELOAD", setup_.alloc_library);
    env.emplace_back("JBENCH_ALLOC_OUT", setup_.run_dir + "/" + collect::alloc_file_for(index));
    env.emplace_back("JBENCH_ALLOC_MEAN_BYTES", std::to_string(setup_.alloc_mean_bytes));
    env.emplace_back("JBENCH_ALLOC_SEED", std::to_string(setup_.seed + index));
    env.emplace_back("JBENCH_BOOT_ID", setup_.boot_id);
  }
  return env;
}

std::string RunCollectors::attach(const Cohort& cohort, std::size_t workers,
                                  std::uint64_t deadline_ns) {
  workers_ = workers;
  attached_ = true;
  attached_ns_ = monotonic_ns();
  for (const auto& m : cohort.members()) {
    cpu_.track(m.worker ? static_cast<long>(*m.worker) : -1, m.pid, m.start_time_ticks);
    if (m.worker) registered_.push_back({m.pid, m.start_time_ticks});
  }
  if (requested("bridge")) {
    for (std::size_t i = 0; i < workers; ++i) {
      bridge_files_.files.push_back(collect::bridge_file_for(i));
    }
  }
  if (requested("syscall")) {
    collectors::SyscallOptions o;
    o.detail = setup_.mode == TraceMode::full ? collectors::SyscallDetail::full
                                              : collectors::SyscallDetail::light;
    o.backend = setup_.syscall_backend;
    o.raw_dir = setup_.run_dir + "/raw";
    o.run_id = setup_.run_id;
    o.boot_id = setup_.boot_id;
    if (setup_.max_output_bytes > 0) o.max_output_bytes = setup_.max_output_bytes;
    const std::uint64_t now = monotonic_ns();
    o.attach_timeout_ns = deadline_ns > now ? deadline_ns - now : 0;
    std::vector<collectors::CohortProcess> members;
    for (const auto& m : cohort.members()) {
      if (m.worker) {
        members.push_back({static_cast<std::uint32_t>(*m.worker), m.pid, m.start_time_ticks});
      }
    }
    // Returns once attached (or failed): the workers have not been sent any work yet.
    syscall_ = collectors::SyscallCollector::start(o, std::move(members));
  }
  return {};
}

std::string RunCollectors::verify(std::uint64_t deadline_ns) {
  if (preloads_alloc()) {
    alloc_seen_ = collect::alloc_headers_seen(setup_.run_dir, registered_);
    if (alloc_seen_.size() != workers_) {
      return fmt::format(
          "attachment not verified: the allocation sampler's header is missing in {} of {} "
          "workers (is {} loadable?)",
          workers_ - alloc_seen_.size(), workers_, setup_.alloc_library);
    }
  }
  if (syscall_ && !syscall_->await_canaries(deadline_ns)) {
    return fmt::format(
        "attachment not verified: the syscall collector ({}) did not see every worker's canary",
        syscall_->backend());
  }
  if (!requested("bridge")) return {};
  bridge_canaries_ = collect::await_canaries(bridge_files_, deadline_ns);
  if (bridge_canaries_.size() == workers_) return {};
  std::vector<std::size_t> missing;
  for (std::size_t i = 0; i < workers_; ++i) {
    if (!std::binary_search(bridge_canaries_.begin(), bridge_canaries_.end(), i)) {
      missing.push_back(i);
    }
  }
  return fmt::format(
      "attachment not verified: the bridge's canary of worker(s) {} never reached the raw files",
      fmt::join(missing, ", "));
}

std::vector<std::pair<std::string, Json>> RunCollectors::raw_documents() const {
  if (!attached_) return {};
  std::vector<std::pair<std::string, Json>> out = {{collect::kCpuReadingsFile, cpu_.readings()}};
  if (!syscall_summary_.is_null()) out.emplace_back(kSyscallSummaryFile, syscall_summary_);
  return out;
}

void RunCollectors::boundary(std::string_view phase) {
  if (syscall_) syscall_->mark_phase(phase);
  cpu_.boundary(phase);
}

void RunCollectors::joined(const CohortMember& member) {
  cpu_.track(-1, member.pid, member.start_time_ticks);
  if (syscall_) syscall_->add_process({UINT32_MAX, member.pid, member.start_time_ticks});
}

void RunCollectors::exited(pid_t pid, const proc::ExitStatus& s) {
  cpu_.exited(pid, {s.user_ns, s.system_ns, s.voluntary_switches, s.involuntary_switches});
}

std::string RunCollectors::finish(const Json& boundaries, const Cohort& cohort) {
  if (!attached_) {
    // The run ended before its cohort was registered: no collector started, none is listed
    // (the run's own status says why).
    Json required_names = Json::array();
    for (const auto& plan : plans_) {
      if (plan.required) required_names.push_back(plan.name);
    }
    trace_mode_ = {{"mode", trace_mode_name(setup_.mode)},
                   {"bridge_mode", collect::bridge_mode_for(setup_.mode)},
                   {"requires", required_names},
                   {"attached", false},
                   {"collectors", Json::array()}};
    return {};
  }
  std::vector<collect::CollectorEntry> entries;
  entries.push_back(cpu_.finish(workers_, attached_ns_));
  entries.back().extra["readings"] = collect::kCpuReadingsFile;
  if (requested("bridge")) {
    collect::BridgeConsumerInput in;
    in.files = bridge_files_;
    in.run_id = setup_.run_id;
    in.boot_id = setup_.boot_id;
    for (const auto& m : cohort.members()) in.cohort.insert({m.pid, m.start_time_ticks});
    in.workers = workers_;
    in.canaries_seen = bridge_canaries_;
    in.started_ns = attached_ns_;
    in.attached_ns = attached_ns_;
    in.phases = collect::PhaseBoundaries::from_json(boundaries);
    in.gc_expected = collect::emits_gc_events(setup_.workload_kind);
    in.alloc_in_runtime = collect::samples_allocations_in_runtime(setup_.workload_kind);
    in.setting = std::string(trace_mode_name(setup_.mode));
    for (auto& e : collect::consume(in).entries) entries.push_back(std::move(e));
  }
  if (preloads_alloc()) {
    collect::AllocInput in;
    in.run_dir = setup_.run_dir;
    in.run_id = setup_.run_id;
    in.boot_id = setup_.boot_id;
    for (const auto& m : cohort.members()) in.cohort.insert({m.pid, m.start_time_ticks});
    in.workers = workers_;
    in.boundaries = boundaries;
    entries.push_back(
        collect::consume_alloc(in, alloc_seen_, attached_ns_, setup_.alloc_mean_bytes));
  }
  Json syscall_entry;
  if (syscall_) {
    syscall_entry = syscall_->stop(monotonic_ns() + kStopWaitNs);
    syscall_.reset();
    if (syscall_entry.contains("summary")) {
      syscall_summary_ = syscall_entry["summary"];
      syscall_entry.erase("summary");
      syscall_entry["summary_file"] = kSyscallSummaryFile;
    }
  }
  // Everything the table lists but nothing above ran: not requested, or not available here.
  Json required_names = Json::array();
  Json list = Json::array();
  std::string failed;
  for (const auto& plan : plans_) {
    auto found =
        std::find_if(entries.begin(), entries.end(),
                     [&](const collect::CollectorEntry& e) { return e.name == plan.name; });
    collect::CollectorEntry e;
    if (found != entries.end()) {
      e = *found;
    } else if (!plan.requested) {
      e = collect::not_requested(plan.name, plan.reason);
    } else if (plan.name == "alloc" && setup_.alloc_library.empty()) {
      e = collect::not_available(plan.name, "ld-preload",
                                 "the allocation sampler libjbench_alloc.so was not found beside "
                                 "jbench (lib/ next to bin/)",
                                 "build jbench whole (bash ci/build.sh)");
    } else if (plan.name == "gc" && !collect::emits_gc_events(setup_.workload_kind)) {
      e = collect::not_available(plan.name, "usdt-bridge", plan.reason,
                                 "run a workload whose runtime reports its collections through "
                                 "jb_gc_begin/jb_gc_end (e.g. kind: chez)");
    } else {
      e = collect::not_available(plan.name, plan.source,
                                 fmt::format("jbench has no {} backend for {} targets yet",
                                             plan.name, setup_.workload_kind),
                                 "none yet: this trace mode cannot be complete on any host");
    }
    if (plan.name == "syscall" && syscall_entry.is_object()) {
      // The collector decided its own status with the same five words (finish() rules).
      syscall_entry["setting"] = plan.setting;
      if (plan.required) required_names.push_back(plan.name);
      if (plan.required && syscall_entry.value("status", "") != collect::kOk &&
          syscall_entry.value("status", "") != collect::kNoEventsObserved && failed.empty()) {
        failed = fmt::format("collector syscall {}: {}", syscall_entry.value("status", ""),
                             syscall_entry.value("reason", ""));
      }
      list.push_back(syscall_entry);
      continue;
    }
    e.setting = plan.requested ? plan.setting : "";
    if (plan.required) required_names.push_back(plan.name);
    if (plan.required && e.status == collect::kCollectorFailed && failed.empty()) {
      failed = fmt::format("collector {} failed: {}", e.name, e.reason);
    }
    list.push_back(e.to_json());
  }
  trace_mode_ = {{"mode", trace_mode_name(setup_.mode)},
                 {"bridge_mode", collect::bridge_mode_for(setup_.mode)},
                 {"requires", required_names},
                 {"attached", true},
                 {"collectors", list}};
  return failed;
}

}  // namespace jbench::run
