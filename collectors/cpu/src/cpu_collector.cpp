#include "jbench/collectors/cpu/cpu_collector.h"

#include "jbench/collectors/cpu/cpu_accounting.h"

namespace jbench::collectors {
namespace {

class CpuCollector final : public Collector {
 public:
  jbench::Status attach(std::span<const Member> cohort, std::size_t /*workers*/,
                        std::uint64_t /*deadline_ns*/) override {
    attached_ = true;
    for (const Member& m : cohort) {
      cpu_.track(m.worker ? static_cast<long>(*m.worker) : -1, m.pid, m.start_time_ticks);
    }
    return {};
  }
  void boundary(std::string_view phase) override { cpu_.boundary(phase); }
  void joined(const Member& m) override { cpu_.track(-1, m.pid, m.start_time_ticks); }
  void exited(pid_t pid, const ExitTotals& totals) override { cpu_.exited(pid, totals); }
  std::vector<CollectorEntry> finish(const FinishContext& context) override {
    CollectorEntry e = cpu_.finish(context.workers, context.attached_ns);
    e.extra["readings"] = kCpuReadingsFile;
    return {std::move(e)};
  }
  std::vector<std::pair<std::string, nlohmann::json>> raw_documents() const override {
    if (!attached_) return {};
    return {{kCpuReadingsFile, cpu_.readings()}};
  }

 private:
  CpuAccounting cpu_;
  bool attached_ = false;
};

}  // namespace

std::unique_ptr<Collector> make_cpu_collector(const RunContext& /*context*/) {
  return std::make_unique<CpuCollector>();
}

}  // namespace jbench::collectors
