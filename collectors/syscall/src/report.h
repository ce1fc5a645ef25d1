// After the backend stopped: turns what it observed into the raw event file, the summary and the
// facts the status is decided from. Separate from the live part so its rules read in one place.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "backend.h"
#include "fd_table.h"
#include "incarnations.h"

namespace jbench::collectors::syscall_detail {

struct ReportInput {
  std::string events_path;  // raw/syscall.events.jsonl.zst
  std::uint64_t max_output_bytes = 0;
  nlohmann::json header;  // schema, collector, backend, clock, units, run, phases ...
  nlohmann::json ended;   // {"how": "exit", "code": 0} / {"how": "signal", "signal": 9}
  std::uint64_t started_ns = 0;
  std::vector<PhaseMark> marks;
  const std::vector<CohortProcess>* registered = nullptr;
  const std::vector<CohortProcess>* added = nullptr;
  const std::map<pid_t, FdSnapshot>* snapshots = nullptr;  // full: descriptors at start / add
};

struct ReportOutput {
  Incarnations incarnations;
  nlohmann::json summary;
  std::uint64_t records = 0;
  std::uint64_t refused = 0;  // past the output bound
  bool over_bound = false;
  std::uint64_t calls = 0;  // traced calls accounted for
  std::vector<std::string> problems;
  std::string write_error;
};

ReportOutput write_report(const ReportInput& in, Observed& observed);

}  // namespace jbench::collectors::syscall_detail
