// Reading a bundle into cost accounts: every light and full run's account (account.h), with the
// raw files streamed once (memory does not grow with the number of syscall records) and the runs
// read on up to `threads` threads. Only reads; the bundle is never changed.
//
//   BundleAccounts b = read_bundle_accounts("bundles/attribution-...", {});
//   if (!b.error.empty()) ...         // unreadable: "runs/x/raw/syscall.events.jsonl.zst:12: ..."
//   if (!b.valid) ...                 // b.invalid_because says why
#pragma once

#include <string>
#include <vector>

#include "jbench/attribution/account.h"
#include "jbench/overhead_report/counted.h"
#include "jbench/overhead_report/overhead.h"
#include "jbench/overhead_report/project_counters.h"

namespace jbench::attribution {

struct ReadOptions {
  unsigned threads = 2;
};

struct BundleAccounts {
  std::string name;
  std::string status;  // the manifest's: complete, interrupted, ...
  std::vector<overhead_report::RunFacts>
      runs;                          // every run of the manifest (for the overhead and spread)
  std::vector<RunAccount> accounts;  // light and full runs that succeeded
  std::vector<overhead_report::CountedCell>
      counted;  // counted cells' instructions (report/counted.h)
  // The project's own counters, every mode (report/project_counters.h).
  std::vector<overhead_report::ProjectCounterRow> project_counters;
  std::vector<std::string> skipped;  // traced runs not accounted, each with why
  // Whether it may be read as evidence (judge_bundle, every checksum), judged whether or not it
  // could be read: an edited bundle is often both.
  bool valid = true;
  std::vector<std::string> invalid_because;
  std::string error;                  // why the bundle could not be read; empty when it could
  std::uint64_t syscall_records = 0;  // full-detail records read
  std::uint64_t bytes_read = 0;
};

BundleAccounts read_bundle_accounts(const std::string& bundle_dir, const ReadOptions& options);

}  // namespace jbench::attribution
