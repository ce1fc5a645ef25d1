#include "jbench/collectors/syscall/syscall_run_collector.h"

#include <fmt/format.h>

#include "jbench/collectors/syscall/syscall_collector.h"
#include "jbench/common/clock.h"

namespace jbench::collectors {
namespace {

// How long the backend may take to stop and flush after the cohort is gone.
constexpr std::uint64_t kStopWaitNs = 10'000'000'000ULL;

class SyscallRunCollector final : public Collector {
 public:
  explicit SyscallRunCollector(RunContext context) : context_(std::move(context)) {}

  jbench::Status attach(std::span<const Member> cohort, std::size_t /*workers*/,
                        std::uint64_t deadline_ns) override {
    SyscallOptions o;
    o.detail = context_.mode == TraceMode::full ? SyscallDetail::full : SyscallDetail::light;
    o.backend = context_.syscall_backend;
    o.compiled_first = true;  // a session loads the compiled tracer once for all its light runs
    o.raw_dir = context_.run_dir + "/raw";
    o.run_id = context_.run_id;
    o.boot_id = context_.boot_id;
    if (context_.max_output_bytes > 0) o.max_output_bytes = context_.max_output_bytes;
    const std::uint64_t now = monotonic_ns();
    o.attach_timeout_ns = deadline_ns > now ? deadline_ns - now : 0;
    std::vector<CohortProcess> members;
    for (const Member& m : cohort) {
      if (m.worker) {
        members.push_back({static_cast<std::uint32_t>(*m.worker), m.pid, m.start_time_ticks});
      }
    }
    // Returns once attached (or failed): the workers have not been sent any work yet.
    live_ = SyscallCollector::start(o, std::move(members));
    return {};
  }

  jbench::Status verify(std::uint64_t deadline_ns) override {
    if (!live_) return collector_problem("the syscall collector was never attached");
    if (live_->await_canaries(deadline_ns)) return {};
    return collector_problem(fmt::format(
        "attachment not verified: the syscall collector ({}) did not see every worker's canary",
        live_->backend()));
  }

  // The run loop calls these only after attach(); a collector never attached ignores them.
  void boundary(std::string_view phase) override {
    if (live_) live_->mark_phase(phase);
  }

  void joined(const Member& m) override {
    if (live_) live_->add_process({UINT32_MAX, m.pid, m.start_time_ticks});
  }

  std::vector<CollectorEntry> finish(const FinishContext& /*context*/) override {
    if (!live_) return {};  // the run loop then says it never started
    SyscallStop stopped = live_->finish(monotonic_ns() + kStopWaitNs);
    live_.reset();
    summary_ = std::move(stopped.summary);
    stopped.entry.extra["summary_file"] = kSyscallSummaryFile;
    return {std::move(stopped.entry)};
  }

  std::vector<std::pair<std::string, nlohmann::json>> raw_documents() const override {
    if (summary_.is_null()) return {};
    return {{kSyscallSummaryFile, summary_}};
  }

 private:
  RunContext context_;
  std::unique_ptr<SyscallCollector> live_;
  nlohmann::json summary_;
};

// The remediation of the probe's first not_available check whose name starts with `prefix`.
std::string remediation_of(const nlohmann::json& capabilities, std::string_view prefix) {
  const auto checks = capabilities.find("checks");
  if (checks == capabilities.end() || !checks->is_array()) return {};
  for (const nlohmann::json& c : *checks) {
    if (c.value("status", "") != "not_available") continue;
    if (c.value("name", "").rfind(prefix, 0) != 0) continue;
    return c.value("remediation", "");
  }
  return {};
}

// Whether the probe chose a backend for `key` (backends.syscall_light or syscall_full).
Availability syscall_host_check_for(const HostOffer& host, const std::string& key) {
  const nlohmann::json& caps = host.capabilities;
  const nlohmann::json* syscall = nullptr;
  if (const auto b = caps.find("backends"); b != caps.end() && b->is_object()) {
    if (const auto s = b->find(key); s != b->end()) syscall = &*s;
  }
  if (syscall && syscall->contains("chosen") && !(*syscall)["chosen"].is_null()) return {};
  const std::string why =
      syscall ? syscall->value("why", "") : "the probe has no " + key + " backend";
  std::string fix = remediation_of(caps, "bpftrace");
  if (fix.empty()) fix = remediation_of(caps, "strace");
  if (fix.empty()) fix = "run `jbench doctor` and follow its remediation";
  return {false, "syscall: no backend can attach here: " + why, fix};
}

}  // namespace

Availability syscall_light_host_check(const HostOffer& host) {
  return syscall_host_check_for(host, "syscall_light");
}

Availability syscall_full_host_check(const HostOffer& host) {
  return syscall_host_check_for(host, "syscall_full");
}

std::unique_ptr<Collector> make_syscall_collector(const RunContext& context) {
  return std::make_unique<SyscallRunCollector>(context);
}

}  // namespace jbench::collectors
