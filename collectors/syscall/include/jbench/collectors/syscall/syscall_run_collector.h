// The syscall collector as the run loop sees it (api/collector.h): started once every worker is
// registered, proven by every worker's canary call, marked at every phase boundary, stopped
// after the cohort is gone. Its summary is kept as a raw document (raw/syscall.summary.json):
// in light mode the kernel's aggregates are the raw data.
#pragma once

#include <memory>

#include "jbench/collectors/api/collector.h"

namespace jbench::collectors {

// Where the summary is kept, inside the run directory.
inline constexpr const char* kSyscallSummaryFile = "raw/syscall.summary.json";

std::unique_ptr<Collector> make_syscall_collector(const RunContext& context);

// Whether a syscall backend can attach here for the trace mode: the probe chose one
// (capabilities.json backends.syscall_light, backends.syscall_full).
Availability syscall_light_host_check(const HostOffer& host);
Availability syscall_full_host_check(const HostOffer& host);

}  // namespace jbench::collectors
