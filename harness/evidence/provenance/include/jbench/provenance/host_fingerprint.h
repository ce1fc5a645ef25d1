// The host a bundle was produced on, for the manifest: enough to tell two hosts (or two boots
// of one host) apart and to see what could skew timings.
//
//   nlohmann::json host = host_fingerprint();       // the real host
//   nlohmann::json fake = host_fingerprint("/tmp/root");  // proc/ and sys/ under a test tree
//
// Keys (always all present; a fact that cannot be read is {"unavailable": "<why>"}, never left
// out):
//   cpu_model         "model name" of the first CPU in /proc/cpuinfo
//   cpus_online       number of CPUs in /sys/devices/system/cpu/online
//   cpus_usable       CPUs this process may run on (usable_cpus: its affinity mask on Linux)
//   memory_total_mib  MemTotal of /proc/meminfo
//   kernel            {sysname, release, version, machine} from uname(2)
//   hostname          nodename from uname(2)
//   boot_id           /proc/sys/kernel/random/boot_id (changes at every boot)
//   clocksource       /sys/devices/system/clocksource/clocksource0/current_clocksource
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace jbench {

// `root` prefixes every file read ("" = the real filesystem). cpus_usable, kernel and hostname
// come from system calls and describe the calling process's host whatever `root` is.
nlohmann::json host_fingerprint(const std::string& root = "");

}  // namespace jbench
