// Running the target program (alloc_target.c) with or without the sampler preloaded, and
// reading what both sides report. Shared by the alloc test files.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "jbench/events/event_file.h"
#include "run_process.h"

namespace jbench::alloc_test {

inline constexpr const char* kRunId = "alloc.test.r1";
inline constexpr const char* kBootId = "00000000-0000-4000-8000-0000000a110c";
inline constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;
// The target's largest allocation (alloc_target.c): 1.5 MiB and a page.
inline constexpr double kLargestAllocation = 1.5 * 1024 * 1024 + 4096;

// One `key=value ...` line the target printed (one per process, role=main|parent|child|threads).
struct TargetLine {
  std::map<std::string, std::string> values;
  std::int64_t pid() const;
  std::uint64_t start_time_ticks() const;
  std::uint64_t allocated_bytes() const;
  std::uint64_t number(const std::string& key) const;
  std::string role() const;
};

struct TargetRun {
  test::ProcessResult process;
  std::vector<TargetLine> lines;
  // The line of the given role; fails the test (and returns an empty line) if absent.
  TargetLine line(const std::string& role) const;
};

// Runs the target with `args`. `preload` adds LD_PRELOAD=libjbench_alloc.so; `env` is set on
// top (JBENCH_RUN_ID and JBENCH_BOOT_ID are set to kRunId and kBootId unless given); `cwd`
// empty: the test's own.
TargetRun run_target(const std::vector<std::string>& args, bool preload,
                     std::vector<std::pair<std::string, std::string>> env = {},
                     const std::string& cwd = "");

std::vector<nlohmann::json> read_json_lines(const std::string& path);

// The context of a run whose cohort is exactly these processes.
EventContext context_of(const std::vector<TargetLine>& members);

// The alloc_summary record of a file (a null json if there is none).
nlohmann::json summary_record(const std::vector<nlohmann::json>& lines);

// "code (line N: message)" lines, for failure messages.
std::string describe(const EventFileReport& report);

std::uint64_t decimal(const nlohmann::json& value);

// An upper bound on P(|estimate - bytes| >= rel * bytes) for the sampler's estimator
// (docs/collectors/alloc.md), by Bernstein's inequality: the estimate is a sum of independent
// terms, one per allocation, each centred term bounded by max(mean, largest allocation) and the
// variance at most mean * bytes.
double estimate_miss_probability(double mean_bytes, double bytes, double largest_allocation,
                                 double rel);

}  // namespace jbench::alloc_test
