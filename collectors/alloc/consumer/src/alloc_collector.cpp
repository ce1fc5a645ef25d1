#include "jbench/collectors/alloc/alloc_collector.h"

#include <fmt/format.h>

#include <filesystem>

#include "jbench/collectors/alloc/alloc_consumer.h"
#include "jbench/events/compressed_file.h"

namespace jbench::collectors {
namespace {

class AllocCollector final : public Collector {
 public:
  explicit AllocCollector(RunContext context) : context_(std::move(context)) {}

  jbench::Status prepare() override {
    if (!built()) return {};
    std::error_code ec;
    std::filesystem::create_directories(context_.run_dir + "/raw/alloc", ec);
    if (ec) {
      return collector_problem(
          fmt::format("cannot create {}/raw/alloc: {}", context_.run_dir, ec.message()));
    }
    return {};
  }

  void add_worker_env(std::size_t index, WorkerEnv& env) const override {
    if (!built()) return;
    // Only the cohort is preloaded: the harness and any other process never are.
    env.emplace_back("LD_PRELOAD", context_.alloc_library);
    env.emplace_back("JBENCH_ALLOC_OUT", context_.run_dir + "/" + alloc_file_for(index));
    env.emplace_back("JBENCH_ALLOC_MEAN_BYTES", std::to_string(context_.alloc_mean_bytes));
    env.emplace_back("JBENCH_ALLOC_SEED", std::to_string(context_.seed + index));
    env.emplace_back("JBENCH_BOOT_ID", context_.boot_id);
  }

  jbench::Status attach(std::span<const Member> cohort, std::size_t workers,
                        std::uint64_t /*deadline_ns*/) override {
    workers_ = workers;
    for (const Member& m : cohort) {
      if (m.worker) registered_.push_back({m.pid, m.start_time_ticks});
    }
    return {};
  }

  jbench::Status verify(std::uint64_t /*deadline_ns*/) override {
    if (!built()) return {};
    seen_ = alloc_headers_seen(context_.run_dir, registered_);
    if (seen_.size() == workers_) return {};
    return collector_problem(fmt::format(
        "attachment not verified: the allocation sampler's header is missing in {} of {} "
        "workers (is {} loadable?)",
        workers_ - seen_.size(), workers_, context_.alloc_library));
  }

  std::vector<CollectorEntry> finish(const FinishContext& context) override {
    if (!built()) {
      return {not_available("alloc", "ld-preload",
                            "the allocation sampler libjbench_alloc.so was not found beside "
                            "jbench (lib/ next to bin/)",
                            "build jbench whole (bash ci/build.sh)")};
    }
    AllocInput in;
    in.run_dir = context_.run_dir;
    in.run_id = context_.run_id;
    in.boot_id = context_.boot_id;
    for (const Member& m : context.cohort) in.cohort.insert({m.pid, m.start_time_ticks});
    in.workers = context.workers;
    if (context.boundaries) in.boundaries = *context.boundaries;
    CollectorEntry entry = consume_alloc(in, seen_, context.attached_ns, context_.alloc_mean_bytes);
    // Read once as the sampler wrote it; kept compressed (every reader takes either form).
    for (auto& file : entry.raw) file = events::keep_compressed(context_.run_dir, file);
    return {entry};
  }

 private:
  bool built() const { return !context_.alloc_library.empty(); }
  RunContext context_;
  std::size_t workers_ = 0;
  std::vector<Registered> registered_;  // the workers, by index
  std::vector<std::size_t> seen_;
};

}  // namespace

Availability alloc_host_check(const HostOffer& host) {
  if (host.alloc_library_built) return {};
  return {false, "alloc: the allocation sampler libjbench_alloc.so is not built beside jbench",
          "build it: cmake --build build --target jbench_alloc_preload"};
}

std::unique_ptr<Collector> make_alloc_collector(const RunContext& context) {
  return std::make_unique<AllocCollector>(context);
}

}  // namespace jbench::collectors
