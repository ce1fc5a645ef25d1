// Viewer exports of a bundle's timelines (docs/export.md): Chrome trace-event JSON, which
// Perfetto UI and speedscope open, and folded stacks — of span self time, of on-CPU samples, of
// off-CPU time by reason and waker — which flamegraph.pl and speedscope read. Everything comes from
// the bundle's raw files; nothing is re-run.
//
//   ExportOptions o{.bundle = "bundles/b", .format = ExportFormat::chrome_json};
//   ExportOutcome r = export_bundle(o, std::cout);
//   for (const auto& note : r.notes) std::cerr << note << '\n';
//   if (r.failure != ExportFailure::none) ...   // r.message says why, naming file:line
//
// Memory does not grow with the number of records: each raw file is read line by line, and
// only the spans still open on each thread (and, for folded, one total per distinct stack) are
// held. The output is written to a temporary file and renamed into place (or copied to the
// stream when there is no --out), so a failed export leaves nothing half written.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace jbench::exports {

// folded: span self time (ns); folded_on_cpu: on-CPU samples (a count); folded_off_cpu: off-CPU
// time (ns). jsonl: the raw records as text, every file of the selected runs as written
// (docs/export.md).
enum class ExportFormat { chrome_json, folded, folded_on_cpu, folded_off_cpu, jsonl };

struct ExportOptions {
  std::string bundle;
  ExportFormat format = ExportFormat::chrome_json;
  // One run's id; unset: every run with span or syscall records (jsonl: every run that ran).
  std::optional<std::string> run;
  std::string out;  // the file to write; empty: the stream given to export_bundle
  std::uint64_t max_events = 5'000'000;  // chrome-json: trace events written at most
  bool allow_invalid = false;            // export an invalid bundle anyway, saying so
};

enum class ExportFailure {
  none,
  invalid_bundle,  // the bundle is `.invalid` or its validation.json says not valid
  bad_input,       // bad usage, an unknown run, an unreadable bundle or a malformed raw line
};

struct ExportOutcome {
  ExportFailure failure = ExportFailure::none;
  std::string message;               // why it failed; empty on success
  std::vector<std::string> notes;    // what a reader must know (a cut, an invalid bundle, ...)
  std::uint64_t events_written = 0;  // chrome-json trace events; folded and jsonl: lines
  std::vector<std::string> runs;     // the runs exported, in the manifest's order
  bool one_pass = false;             // chrome-json read each raw file once (docs/export.md)
};

ExportOutcome export_bundle(const ExportOptions& options, std::ostream& stream);

}  // namespace jbench::exports
