// Probes the host's resources for planning.
//
//   HostResources host = probe_host_resources();          // the real host
//   HostResources fake = probe_host_resources("/tmp/root");  // a test tree with proc/ and sys/
//
// cores: the CPUs this process may run on (sched affinity), lowered by a cgroup v2 cpu.max quota.
// memory: MemTotal from /proc/meminfo, lowered by a cgroup v2 memory.max limit. Totals, not
// "available" figures, so that the same host gives the same plan from one minute to the next.
#pragma once

#include <string>

#include "jbench/common/host_resources.h"

namespace jbench {

// `root` prefixes every path read ("" = the real filesystem). With a root, affinity is not
// consulted and cores come from <root>/sys/devices/system/cpu/online.
HostResources probe_host_resources(const std::string& root = "");

}  // namespace jbench
