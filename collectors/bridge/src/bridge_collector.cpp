#include "jbench/collectors/bridge/bridge_collector.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "jbench/collectors/api/workload_traits.h"
#include "jbench/collectors/bridge/bridge_consumer.h"
#include "jbench/events/compressed_file.h"

namespace jbench::collectors {
namespace {

class BridgeCollector final : public Collector {
 public:
  explicit BridgeCollector(RunContext context) : context_(std::move(context)) {
    files_.run_dir = context_.run_dir;
  }

  jbench::Status prepare() override {
    std::error_code ec;
    std::filesystem::create_directories(context_.run_dir + "/raw/bridge", ec);
    if (ec) {
      return collector_problem(
          fmt::format("cannot create {}/raw/bridge: {}", context_.run_dir, ec.message()));
    }
    return {};
  }

  void add_worker_env(std::size_t index, WorkerEnv& env) const override {
    env.emplace_back("JBENCH_BRIDGE_OUT", context_.run_dir + "/" + bridge_file_for(index));
    env.emplace_back("JBENCH_BOOT_ID", context_.boot_id);
  }

  jbench::Status attach(std::span<const Member> /*cohort*/, std::size_t workers,
                        std::uint64_t /*deadline_ns*/) override {
    workers_ = workers;
    for (std::size_t i = 0; i < workers; ++i) files_.files.push_back(bridge_file_for(i));
    return {};
  }

  jbench::Status verify(std::uint64_t deadline_ns) override {
    canaries_ = await_canaries(files_, deadline_ns);
    if (canaries_.size() == workers_) return {};
    std::vector<std::size_t> missing;
    for (std::size_t i = 0; i < workers_; ++i) {
      if (!std::binary_search(canaries_.begin(), canaries_.end(), i)) missing.push_back(i);
    }
    return collector_problem(fmt::format(
        "attachment not verified: the bridge's canary of worker(s) {} never reached the raw "
        "files",
        fmt::join(missing, ", ")));
  }

  std::vector<CollectorEntry> finish(const FinishContext& context) override {
    BridgeConsumerInput in;
    in.files = files_;
    in.run_id = context_.run_id;
    in.boot_id = context_.boot_id;
    for (const Member& m : context.cohort) in.cohort.insert({m.pid, m.start_time_ticks});
    in.workers = context.workers;
    in.canaries_seen = canaries_;
    in.started_ns = context.attached_ns;
    in.attached_ns = context.attached_ns;
    in.phases =
        context.boundaries ? PhaseBoundaries::from_json(*context.boundaries) : PhaseBoundaries{};
    in.gc_expected = context_.workload.gc_events;
    in.alloc_in_runtime = context_.workload.runtime_allocates;
    in.setting = std::string(trace_mode_name(context_.mode));
    std::vector<CollectorEntry> entries = consume(in).entries;
    keep_compressed(entries);
    if (!in.gc_expected) {
      entries.push_back(not_available(
          "gc", "usdt-bridge", gc_unavailable_reason(context_.workload.kind),
          "run a workload whose runtime reports its collections through jb_gc_begin/jb_gc_end "
          "(e.g. kind: chez)"));
    }
    return entries;
  }

 private:
  // The workers wrote their files as text; once read, each is kept compressed (the same lines in
  // a tenth of the bytes; every reader takes either form). A file that cannot be compressed
  // stays as it was written, under its own name.
  void keep_compressed(std::vector<CollectorEntry>& entries) const {
    for (auto& e : entries) {
      if (e.name != "bridge") continue;
      for (auto& file : e.raw) file = events::keep_compressed(context_.run_dir, file);
    }
  }

  RunContext context_;
  BridgeFiles files_;
  std::size_t workers_ = 0;
  std::vector<std::size_t> canaries_;
};

}  // namespace

std::unique_ptr<Collector> make_bridge_collector(const RunContext& context) {
  return std::make_unique<BridgeCollector>(context);
}

std::string gc_unavailable_reason(std::string_view workload_kind) {
  return fmt::format(
      "the {} worker emits no GC probes: it is a native program without a garbage collector",
      workload_kind);
}

}  // namespace jbench::collectors
