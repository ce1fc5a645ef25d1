// One run of a bundle read into its cost account: run.json, summary.json, the workers' results,
// the bridge's raw files and the syscall records. Private to jbench::attribution.
#pragma once

#include <cstdint>
#include <string>

#include "jbench/attribution/account.h"
#include "jbench/common/result.h"
#include "jbench/overhead_report/overhead.h"

namespace jbench::attribution {

struct RunRead {
  RunAccount account;
  std::uint64_t syscall_records = 0;
  std::uint64_t bytes = 0;
};

// The run's account, or why its files cannot be read into one ("runs/<id>/raw/x.jsonl:12:1: why").
Result<RunRead> read_run(const std::string& bundle_dir, const overhead_report::RunFacts& run);

}  // namespace jbench::attribution
