// Counted runs (docs/trace-modes.md, "counted"): each instructions record against the callgrind
// output it was read from, kept beside it — the count a comparison decides on is the one callgrind
// wrote, for the process the record names.
#include <fmt/format.h>

#include <filesystem>

#include "checks.h"
#include "jbench/bundle/json_file.h"
#include "jbench/collectors/api/status.h"
#include "jbench/collectors/instructions/callgrind_output.h"
#include "jbench/collectors/instructions/instructions_collector.h"
#include "jbench/events/event_file.h"
#include "jbench/events/line_reader.h"

namespace jbench::validate {
namespace {

namespace fs = std::filesystem;

// run.json's entry of the collector `name` (trace_mode.collectors[]), or nullptr.
const Json* collector_entry(const Json& run, std::string_view name) {
  const Json* mode = member(run, "trace_mode");
  const Json* collectors = mode ? member(*mode, "collectors") : nullptr;
  if (!collectors || !collectors->is_array()) return nullptr;
  for (const Json& c : *collectors) {
    if (string_at(c, "name") == name) return &c;
  }
  return nullptr;
}

// The backend of the instructions collector, when it ran (whatever it proved): its records are
// there to check. Callgrind's against the outputs kept beside them; the perf backend's counts
// were read from the processor's counter and leave nothing to recount (the events check holds
// their file), but its records must be the perf backend's.
std::optional<std::string> counted_backend(const RunView& r) {
  const Json* c = r.run && r.run->is_object() ? collector_entry(*r.run, "instructions") : nullptr;
  const auto status =
      c ? collectors::status_from_word(string_at(*c, "status").value_or("")) : std::nullopt;
  if (!status || !collectors::ran(*status)) return std::nullopt;
  return string_at(*c, "backend").value_or("callgrind");
}

void check_record(const std::string& root, const RunView& r, const std::string& at,
                  const Json& record, Findings& findings) {
  const std::string kept = string_at(record, "callgrind").value_or("");
  const std::string raw = r.dir + "/" + collectors::kInstructionsFile;
  if (kept.empty() || !safe_relative(kept)) {
    findings.add("counted.bad_path", raw, at,
                 fmt::format("'{}' is not a callgrind output inside the run's directory", kept));
    return;
  }
  const std::string file = r.dir + "/" + kept;
  std::error_code ec;
  if (!fs::is_regular_file(root + "/" + file, ec)) {
    findings.add("counted.missing_output", raw, at,
                 fmt::format("the callgrind output {} is missing", file));
    return;
  }
  const auto totals = collectors::read_callgrind_totals(root + "/" + file);
  if (!totals || !totals->instructions()) {
    findings.add("counted.unreadable", file, "",
                 totals ? "callgrind's output has no Ir total" : totals.error().message);
    return;
  }
  const auto pid = u64_at(record, "pid");
  if (!pid || static_cast<std::int64_t>(*pid) != totals->pid) {
    findings.add("counted.foreign_output", raw, at,
                 fmt::format("the record names pid {}, its callgrind output pid {}",
                             pid ? std::to_string(*pid) : "(none)", totals->pid));
  }
  const std::string stated = string_at(record, "instructions").value_or("");
  if (stated != std::to_string(*totals->instructions())) {
    findings.add("counted.mismatch", raw, at,
                 fmt::format("the record says {} instructions, callgrind's output {}",
                             stated.empty() ? "(none)" : stated, *totals->instructions()));
  }
  // Records written before allocations were counted lack the field; one that has it must agree.
  if (const auto calls = string_at(record, "allocations");
      calls && *calls != std::to_string(totals->allocations)) {
    findings.add("counted.mismatch", raw, at,
                 fmt::format("the record says {} allocation calls, callgrind's output {}", *calls,
                             totals->allocations));
  }
}

void check_run(const std::string& root, const RunView& r, Findings& findings) {
  const auto backend = counted_backend(r);
  if (!backend) return;
  const std::string raw = r.dir + "/" + collectors::kInstructionsFile;
  const auto read = events::for_each_line(
      root + "/" + raw, kMaxLineBytes,
      [&](std::size_t number, std::string_view line) {
        const Json record = Json::parse(line, nullptr, false);
        const std::string at = fmt::format("line {}", number);
        const auto kind = string_at(record, "kind");
        if (kind == "header" && string_at(record, "backend") != backend) {
          findings.add("counted.mismatch", raw, at,
                       fmt::format("run.json says {} counted, the records' header {}", *backend,
                                   string_at(record, "backend").value_or("(none)")));
        }
        if (kind == "record" && string_at(record, "type") == "instructions" && *backend != "perf") {
          check_record(root, r, at, record, findings);
        }
        return true;
      },
      [](std::size_t) {});
  // A missing or unreadable file is the events check's finding already (events.missing_raw).
  (void)read;
}

}  // namespace

void check_counted(const BundleView& bundle, Findings& findings) {
  for_each_run(bundle, findings,
               [&bundle](const RunView& r, Findings& found) { check_run(bundle.root, r, found); });
}

}  // namespace jbench::validate
