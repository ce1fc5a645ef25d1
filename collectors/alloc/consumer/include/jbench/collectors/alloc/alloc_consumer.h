// The consumer of the LD_PRELOAD allocation sampler (collectors/alloc, docs/collectors/alloc.md)
// in native targets: one file per worker (raw/alloc/worker-<i>.events.jsonl) plus one per process
// it forked (<file>.<pid>).
//
// The sampler writes its header as the process starts, naming the pid and start time it runs
// in: a header of the registered incarnation, present before release, proves the library is
// loaded in that worker (headers_seen). After the run, consume_alloc() checks every file and
// gives the collector's entry; alloc_summary() the per incarnation × phase estimate.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "jbench/collectors/api/collector_entry.h"
#include "jbench/common/incarnation_id.h"

namespace jbench::collectors {

std::string alloc_file_for(std::size_t index);

struct Registered {
  std::int64_t pid = 0;
  std::uint64_t start_time_ticks = 0;
};

// Workers (by index into `workers`) whose file starts with a header naming their incarnation.
std::vector<std::size_t> alloc_headers_seen(const std::string& run_dir,
                                            const std::vector<Registered>& workers);

struct AllocInput {
  std::string run_dir;
  std::string run_id;
  std::string boot_id;
  std::set<IncarnationId> cohort;
  std::size_t workers = 0;
  nlohmann::json boundaries;
};

// Every file of every worker, relative to the run directory, that exists.
std::vector<std::string> alloc_files(const AllocInput& in);

CollectorEntry consume_alloc(const AllocInput& in, std::vector<std::size_t> headers_seen,
                             std::uint64_t started_ns, std::uint64_t mean_bytes);

nlohmann::json alloc_summary(const AllocInput& in);

}  // namespace jbench::collectors
