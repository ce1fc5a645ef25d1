// Reading a bundle into cost accounts: every light and full run's account (account.h), with the
// raw files streamed once (memory does not grow with the number of syscall records) and the runs
// read on up to `threads` threads. Only reads; the bundle is never changed.
//
//   JudgedAccounts b = read_bundle_accounts("bundles/attribution-...", {});
//   if (!b.validity.valid) ...        // b.validity.reasons say why
//   if (!b.accounts) ...              // unreadable: "runs/x/raw/syscall.events.jsonl.zst:12: ..."
#pragma once

#include <string>
#include <vector>

#include "jbench/attribution/account.h"
#include "jbench/bundle/bundle_validity.h"
#include "jbench/common/result.h"
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
  std::vector<std::string> skipped;   // traced runs not accounted, each with why
  std::uint64_t syscall_records = 0;  // full-detail records read
  std::uint64_t bytes_read = 0;
};

// What a reading gives: whether the bundle may be read as evidence (judge_bundle, every
// checksum), judged whether or not it could be read — an edited bundle is often both — and its
// accounts, or why they could not be read.
struct JudgedAccounts {
  BundleValidity validity;
  Result<BundleAccounts> accounts;
};

JudgedAccounts read_bundle_accounts(const std::string& bundle_dir, const ReadOptions& options);

}  // namespace jbench::attribution
