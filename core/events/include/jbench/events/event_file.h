// Checking a raw event file (schema "jbench.events", version 1; docs/events.md).
//
// A raw file is JSON Lines: a header, records, a trailer. The reader streams it once and reports
// every problem with a stable code and its line number:
//
//   EventContext ctx{"w1.persistent.writer.tiny.baseline.r1", boot_id, cohort};
//   EventFileReport r = check_event_file("runs/.../raw/spans.events.jsonl", ctx);
//   for (const auto& p : r.problems) print(p.code, p.line, p.message);
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "jb_events_lines.h"
#include "jbench/common/incarnation_id.h"

namespace jbench {

// The names every writer puts in its header (core/events/c/include/jb_events_lines.h).
inline constexpr const char* kEventSchema = JB_EVENTS_SCHEMA;
inline constexpr int kEventSchemaVersion = JB_EVENTS_SCHEMA_VERSION;

// What a file is checked against: the run it claims to belong to and that run's cohort.
struct EventContext {
  std::string run_id;
  std::string boot_id;
  std::set<IncarnationId> cohort;  // the registered incarnations
};

struct EventProblem {
  std::string code;  // "events.*", stable (docs/events.md)
  std::size_t line;  // 1-based; 0 for the file as a whole
  std::string message;
};

struct EventFileReport {
  std::optional<nlohmann::json> header;
  std::optional<nlohmann::json> trailer;
  std::uint64_t records = 0;        // record lines read (of any type, known or not)
  std::uint64_t unknown_types = 0;  // records of types this reader does not know: skipped
  std::uint64_t spans = 0;          // span_begin records
  std::vector<EventProblem> problems;
  bool ok() const { return problems.empty(); }
};

// At most this many problems are listed per file; past it one "events.too_many_problems".
inline constexpr std::size_t kMaxProblemsPerFile = 50;
// A line longer than this is malformed and is skipped without being held in memory.
inline constexpr std::size_t kMaxLineBytes = 1 << 20;

EventFileReport check_event_file(const std::string& path, const EventContext& context);

}  // namespace jbench
