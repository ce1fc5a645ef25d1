#include "run_collectors.h"

#include <fmt/format.h>

#include <algorithm>

#include "jbench/common/clock.h"
#include "jbench/matrix/worker_declaration.h"

namespace jbench::run {

using Json = nlohmann::json;
namespace col = jbench::collectors;

namespace {

std::vector<col::Member> members_of(const Cohort& cohort) {
  std::vector<col::Member> out;
  for (const auto& m : cohort.members()) out.push_back({m.worker, m.pid, m.start_time_ticks});
  return out;
}

// The entry of a row that no collector served: not requested, or no implementation for it.
col::CollectorEntry unserved(const col::CollectorPlan& plan, std::string_view workload_kind) {
  if (!plan.requested) return col::not_requested(plan.name, plan.reason);
  if (plan.make) {
    // It exists, but the run stopped at an earlier collector's attach, before it was started.
    col::CollectorEntry e;
    e.name = plan.name;
    e.backend = plan.source;
    e.status = col::Status::collector_failed;
    e.reason = "not started: an earlier collector's attach failed, so this one never attached";
    return e;
  }
  return col::not_available(
      plan.name, plan.source,
      fmt::format("jbench has no {} backend for {} targets yet", plan.name, workload_kind),
      "none yet: this trace mode cannot be complete on any host");
}

}  // namespace

col::WorkloadTraits workload_traits(const Workload& w) {
  if (!w.declaration) return col::traits_of_kind(w.kind);
  return {w.declaration->worker(), w.declaration->gc_events(), w.declaration->runtime_allocates()};
}

RunCollectors::RunCollectors(col::RunContext context)
    : context_(std::move(context)),
      plans_(col::collectors_for(context_.mode, context_.workload)),
      collectors_(col::make_collectors(plans_, context_)) {}

RunCollectors::~RunCollectors() = default;

Status RunCollectors::prepare() {
  for (auto& c : collectors_) {
    if (Status prepared = c->prepare(); !prepared.ok()) return prepared;
  }
  return {};
}

col::WorkerEnv RunCollectors::worker_env(std::size_t index) const {
  // The mode is always said, "off" included, so a worker never inherits one from jbench's own
  // environment.
  col::WorkerEnv env = {{"JBENCH_BRIDGE_MODE", std::string(col::bridge_mode_for(context_.mode))}};
  for (const auto& c : collectors_) c->add_worker_env(index, env);
  return env;
}

std::vector<std::string> RunCollectors::worker_command(std::size_t index,
                                                       std::vector<std::string> command) const {
  for (const auto& c : collectors_) c->wrap_command(index, command);
  return command;
}

Status RunCollectors::attach(const Cohort& cohort, std::size_t workers, std::uint64_t deadline_ns) {
  workers_ = workers;
  attached_ = true;
  attached_ns_ = monotonic_ns();
  const std::vector<col::Member> members = members_of(cohort);
  for (auto& c : collectors_) {
    ++attached_count_;
    if (Status attached = c->attach(members, workers, deadline_ns); !attached.ok()) return attached;
  }
  return {};
}

Status RunCollectors::verify(std::uint64_t deadline_ns) {
  for (const auto& c : attached_collectors()) {
    if (Status verified = c->verify(deadline_ns); !verified.ok()) return verified;
  }
  return {};
}

std::vector<std::pair<std::string, Json>> RunCollectors::raw_documents() const {
  if (!attached_) return {};
  std::vector<std::pair<std::string, Json>> out;
  for (const auto& c : attached_collectors()) {
    for (auto& doc : c->raw_documents()) out.push_back(std::move(doc));
  }
  return out;
}

void RunCollectors::boundary(std::string_view phase) {
  for (const auto& c : attached_collectors()) c->boundary(phase);
}

void RunCollectors::joined(const CohortMember& member) {
  for (const auto& c : attached_collectors()) {
    c->joined({member.worker, member.pid, member.start_time_ticks});
  }
}

void RunCollectors::exited(pid_t pid, const proc::ExitStatus& s) {
  for (const auto& c : attached_collectors()) {
    c->exited(pid, {s.user_ns, s.system_ns, s.voluntary_switches, s.involuntary_switches});
  }
}

std::string RunCollectors::finish(const Json& boundaries, const Cohort& cohort, bool confirmed) {
  Json required_names = Json::array();
  for (const auto& plan : plans_) {
    if (plan.required) required_names.push_back(plan.name);
  }
  trace_mode_ = {{"mode", trace_mode_name(context_.mode)},
                 {"bridge_mode", col::bridge_mode_for(context_.mode)},
                 {"requires", required_names},
                 {"attached", attached_},
                 {"collectors", Json::array()}};
  const std::vector<col::Member> members = members_of(cohort);
  const col::FinishContext context{members, workers_, attached_ns_, &boundaries};
  // The run ended before every worker's hello confirmed the cohort: what attached to the
  // admitted workers is stopped, and none is listed (the run's own status says why).
  if (attached_ && !confirmed) {
    for (const auto& c : attached_collectors()) c->finish(context);
    attached_ = false;
    trace_mode_["attached"] = false;
  }
  if (!attached_) return {};
  std::vector<col::CollectorEntry> entries;
  for (const auto& c : attached_collectors()) {
    for (auto& e : c->finish(context)) entries.push_back(std::move(e));
  }
  std::string failed;
  for (const auto& plan : plans_) {
    auto found = std::find_if(entries.begin(), entries.end(),
                              [&](const col::CollectorEntry& e) { return e.name == plan.name; });
    col::CollectorEntry e =
        found != entries.end() ? *found : unserved(plan, context_.workload.kind);
    e.setting = plan.requested ? plan.setting : "";
    if (plan.required && !col::proven(e.status) && failed.empty()) {
      failed = fmt::format("collector {} {}: {}", e.name,
                           e.status == col::Status::collector_failed ? std::string_view("failed")
                                                                     : col::status_word(e.status),
                           e.reason);
    }
    trace_mode_["collectors"].push_back(e.to_json());
  }
  return failed;
}

}  // namespace jbench::run
