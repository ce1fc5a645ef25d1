// What every syscall backend must show on jbench-syscall-target's counting scenario: exact
// counts per phase and call, the cohort and nothing else, the forked child followed, a raw file
// the event checker accepts; in full detail, descriptors resolved to their files and ioctl
// requests decoded. Shared by the tests of each backend.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "target_driver.h"

namespace jbench::test {

// The program's rounds in every phase, a forked child in measure, an unregistered twin.
Scenario counting(collectors::SyscallDetail detail, const std::string& backend);

// Every (phase, call) the program reported is in the summary with the same count and errors.
void expect_counts(const nlohmann::json& entry, pid_t pid, const Did& did);
void expect_scoped_to_cohort(const Outcome& o);
void expect_raw_file_valid(const Outcome& o);
// All of the above for a counting scenario's outcome, with the collector ok and nothing dropped.
void expect_counting_outcome(const Outcome& o);
// Full detail: descriptors resolve to the file they name (`identity`: device and inode too),
// ioctl requests are decoded, and the raw records agree.
void expect_file_breakdown(const Outcome& o, bool identity);

// Every call the program and its fork said they made.
long calls_made(const Outcome& o);
// The compiled tracer's on-CPU samples and off-CPU intervals, records of their own (0 elsewhere).
long samples_of(const Outcome& o);
long off_cpu_recorded(const Outcome& o);

}  // namespace jbench::test
