// The export's passes over a bundle (docs/export.md). chrome-json to a file first tries one
// pass (one_pass.h), which takes from run.json what pass 1 would find and checks it while it
// writes; when that does not hold, or for folded or stdout, the passes are:
//   1. per run, everything admitted and counted: which runs have spans or calls, every track,
//      the earliest timestamp (ts 0), how many events there are, and any malformed line —
//      found before a byte is written;
//   2. only when the events exceed --max-events (chrome-json): counting passes that find the
//      cut time (admission.h);
//   3. the pass that writes.
// Reading a raw file again costs time, never memory; a bundle is only ever read.
#include "jbench/export/export.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

#include "admission.h"
#include "bundle_input.h"
#include "chrome_writer.h"
#include "folded_writer.h"
#include "jbench/bundle/bundle_validity.h"
#include "jsonl_writer.h"
#include "micros.h"
#include "one_pass.h"
#include "output_file.h"
#include "process_map.h"
#include "raw_records.h"
#include "timeline.h"

namespace jbench::exports {
namespace {

using Json = nlohmann::json;

struct RunFacts {
  bool selected = false;
  bool syscall_light = false;
  std::uint64_t totals_records = 0;
  std::uint64_t not_ended = 0;
  std::uint64_t ends_without_begin = 0;
};

// One run through the builder: its records, then its boundaries, then what is left open.
std::string replay_run(const BundleInput& bundle, std::size_t index, TimelineBuilder& builder,
                       RunFacts* facts, bool* had_spans_or_calls) {
  const RunInput& run = bundle.runs[index];
  builder.start_run(index, run.cohort);
  const auto read = read_run_records(run, [&](const RawEvent& e) { builder.record(e); });
  if (!read.error.empty()) return read.error;
  if (had_spans_or_calls) *had_spans_or_calls = builder.run_had_spans_or_calls();
  for (const auto& [name, ns] : run.boundaries) builder.boundary(name, ns);
  const std::uint64_t not_ended = builder.finish_run();
  if (facts) {
    facts->syscall_light = read.syscall_light;
    facts->totals_records = read.totals_records;
    facts->not_ended = not_ended;
    facts->ends_without_begin = builder.ends_without_begin();
  }
  return {};
}

// `wakeups`: chrome-json draws them (every pass of it must say so alike).
std::string replay(const BundleInput& bundle, const std::vector<RunFacts>& facts,
                   TimelineSink& sink, Admission& admission, bool wakeups) {
  TimelineBuilder builder(sink, admission, wakeups);
  for (std::size_t i = 0; i < bundle.runs.size(); ++i) {
    if (!facts[i].selected) continue;
    if (auto error = replay_run(bundle, i, builder, nullptr, nullptr); !error.empty()) {
      return error;
    }
  }
  return {};
}

Json other_data(const ExportOptions& o, const BundleInput& bundle,
                const std::vector<RunFacts>& facts, const ProcessMap& processes,
                std::uint64_t origin_ns) {
  Json runs = Json::array();
  for (std::size_t i = 0; i < bundle.runs.size(); ++i) {
    if (!facts[i].selected) continue;
    const RunFacts& f = facts[i];
    runs.push_back(
        {{"id", bundle.runs[i].id},
         {"syscalls", f.syscall_light ? "light mode: the bundle holds per-call totals only "
                                        "(syscall_totals records); no per-call events are exported"
                                      : (bundle.runs[i].syscall_file ? "one complete event per call"
                                                                     : "no syscall records")},
         {"spans_not_ended", f.not_ended},
         {"span_ends_without_begin", f.ends_without_begin}});
  }
  Json j = {
      {"generator", "jbench export"},
      {"bundle", o.bundle},
      {"bundle_status", bundle.status},
      {"bundle_valid", !bundle.invalid},
      {"runs", runs},
      {"clock", "CLOCK_MONOTONIC"},
      {"origin_ns", std::to_string(origin_ns)},
      {"ts_unit",
       "microseconds since origin_ns, written from integer nanoseconds with exactly three "
       "fractional digits (no precision lost)"},
      {"pids", processes.synthetic()
                   ? "synthetic: two exported incarnations share an OS pid, so each "
                     "(run, pid, start_time_ticks) has its own; process names give the OS pid"
                   : "the OS's"},
      {"max_events", o.max_events},
  };
  if (bundle.invalid) j["bundle_invalid"] = bundle.invalid_reason;
  return j;
}

ExportOutcome failed(ExportFailure why, std::string message) {
  ExportOutcome out;
  out.failure = why;
  out.message = std::move(message);
  return out;
}

void light_note(ExportOutcome& out, const RunInput& run) {
  out.notes.push_back(fmt::format(
      "note: {} is a light-mode run: its syscalls are totals only, so no per-call events are "
      "exported for it",
      run.id));
}

// The one-pass export (one_pass.h) into `out`: true when written and committed or failed for
// good (a malformed line); false when a guess did not hold, and nothing is left of it.
bool export_one_pass(const ExportOptions& o, const BundleInput& bundle, const OnePassPlan& plan,
                     std::ostream& stream, ExportOutcome& out,
                     const std::function<std::optional<ExportOutcome>()>& settle) {
  std::vector<RunFacts> facts(bundle.runs.size());
  std::vector<const RunInput*> runs;
  for (const RunInput& r : bundle.runs) runs.push_back(&r);
  OutputFile file(o.out, stream);
  if (auto error = file.open(); !error.empty()) {
    out = failed(ExportFailure::bad_input, error);
    return true;
  }
  OnePassTrip trip;
  OnePassAdmission admission(plan.origin_ns, o.max_events, trip);
  ProcessMap processes;
  ChromeWriter writer(file, processes, plan.origin_ns, LazyNames{&plan, &trip});
  writer.open(runs);
  TimelineBuilder builder(writer, admission, true);
  ExportOutcome done = out;
  for (std::size_t i = 0; i < bundle.runs.size() && !trip.tripped; ++i) {
    if (!plan.selected[i]) continue;
    const RunInput& run = bundle.runs[i];
    const std::uint64_t written = writer.events() + writer.names();
    builder.start_run(i, run.cohort);
    const auto read = read_run_records(
        run, [&](const RawEvent& e) { builder.record(e); }, &trip.tripped);
    if (!read.error.empty()) {
      out = failed(ExportFailure::bad_input, read.error);
      return true;
    }
    if (!builder.run_had_spans_or_calls() && !o.run) {
      // Left out, as the two passes would: fine while nothing of it is written (a light run's
      // totals are not); its phases or GC pauses would have been.
      if (writer.events() + writer.names() != written) {
        trip.trip(fmt::format("{} has no span or call", run.id));
      }
      builder.finish_run();
      continue;
    }
    for (const auto& [name, ns] : run.boundaries) builder.boundary(name, ns);
    facts[i].not_ended = builder.finish_run();
    facts[i].ends_without_begin = builder.ends_without_begin();
    facts[i].syscall_light = read.syscall_light;
    facts[i].totals_records = read.totals_records;
    facts[i].selected = true;
    done.runs.push_back(bundle.runs[i].id);
    if (facts[i].syscall_light) light_note(done, bundle.runs[i]);
  }
  if (trip.tripped) return false;       // `file` discards its temporary file
  if (done.runs.empty()) return false;  // the two passes say there is nothing to export
  // The bundle's verdict, before anything is committed: a refused bundle leaves no file.
  const std::size_t notes_before = out.notes.size();
  if (auto refused = settle()) {
    out = std::move(*refused);
    return true;
  }
  // What the verdict added (the --allow-invalid warning) goes with the rest.
  done.notes.insert(done.notes.end(), out.notes.begin() + static_cast<std::ptrdiff_t>(notes_before),
                    out.notes.end());
  Json other = other_data(o, bundle, facts, processes, plan.origin_ns);
  other["events_written"] = writer.events();
  other["cut"] = nullptr;
  writer.close(other.dump());
  done.events_written = writer.events();
  done.one_pass = true;
  if (auto error = file.commit(); !error.empty()) done = failed(ExportFailure::bad_input, error);
  out = std::move(done);
  return true;
}

// One pass: the bundle was judged valid before the first byte, so a file that cannot be read
// whole here is an error (exit 2), and with --out leaves no file.
ExportOutcome export_jsonl(const ExportOptions& o, const BundleInput& bundle, std::ostream& stream,
                           ExportOutcome out) {
  OutputFile file(o.out, stream);
  if (auto error = file.open(); !error.empty()) return failed(ExportFailure::bad_input, error);
  const JsonlWritten written = write_raw_lines(bundle, file);
  if (!written.error.empty()) return failed(ExportFailure::bad_input, written.error);
  if (auto error = file.commit(); !error.empty()) return failed(ExportFailure::bad_input, error);
  for (const RunInput& run : bundle.runs) out.runs.push_back(run.id);
  out.events_written = written.lines;
  return out;
}

std::optional<FoldedWeight> folded_weight(ExportFormat format) {
  switch (format) {
    case ExportFormat::folded:
      return FoldedWeight::span_self_time;
    case ExportFormat::folded_on_cpu:
      return FoldedWeight::on_cpu_samples;
    case ExportFormat::folded_off_cpu:
      return FoldedWeight::off_cpu_time;
    case ExportFormat::chrome_json:
    case ExportFormat::jsonl:
      return std::nullopt;
  }
  return std::nullopt;
}

// Why a folded export has no line: nothing of that kind was recorded in the runs exported.
std::string nothing_folded(FoldedWeight weight, const ExportOptions& o) {
  const char* what =
      weight == FoldedWeight::span_self_time ? "no span ended"
      : weight == FoldedWeight::on_cpu_samples
          ? "no cpu_sample record (on-CPU samples are taken in full-detail runs by the compiled "
            "tracer when the host allows it: see the syscall entry's cpu_sampling)"
          : "no off-CPU record and no traced call that slept (off-CPU intervals and wakers are "
            "recorded in full-detail runs by the compiled tracer)";
  return fmt::format("nothing to export: {} in {}{}", what,
                     o.run ? "run " + *o.run + " of " : "the runs of ", o.bundle);
}

}  // namespace

namespace {

// What the first pass found: each run's facts, whether it is exported, and every exported
// run's tracks, with the times and weight of all their events.
struct FirstPass {
  std::vector<RunFacts> facts;
  AdmitAll all;
  ProcessMap processes;
};

// Pass 1, per run, so that a run left out by default leaves nothing in the totals. An error
// (a malformed raw line) is returned as its text.
std::string first_pass(const ExportOptions& o, const BundleInput& bundle, FirstPass& pass,
                       ExportOutcome& out) {
  pass.facts.resize(bundle.runs.size());
  for (std::size_t i = 0; i < bundle.runs.size(); ++i) {
    AdmitAll run_all;
    ProcessMap run_processes;
    CatalogSink catalog(run_processes);
    TimelineBuilder builder(catalog, run_all, o.format == ExportFormat::chrome_json);
    bool had = false;
    if (auto error = replay_run(bundle, i, builder, &pass.facts[i], &had); !error.empty()) {
      return error;
    }
    pass.facts[i].selected = had || o.run.has_value();
    if (!pass.facts[i].selected) continue;
    out.runs.push_back(bundle.runs[i].id);
    pass.all.weight += run_all.weight;
    pass.all.min_ns = std::min(pass.all.min_ns, run_all.min_ns);
    pass.all.max_ns = std::max(pass.all.max_ns, run_all.max_ns);
    pass.processes.merge(run_processes);
    if (pass.facts[i].syscall_light) light_note(out, bundle.runs[i]);
  }
  return {};
}

// otherData's `cut` (null when nothing was cut) and the warning that says what was left out.
Json cut_json(const ExportOptions& o, const std::optional<CutPoint>& cut, const AdmitUntil& until,
              std::uint64_t origin, const ChromeWriter& writer, ExportOutcome& out) {
  if (!cut) return nullptr;
  const CutCounts& left = until.left_out();
  Json by_kind = Json::object();
  std::vector<std::string> words;
  for (std::size_t k = 0; k < kEventKinds; ++k) {
    if (left.by_kind[k] == 0) continue;
    const char* name = event_kind_name(static_cast<EventKind>(k));
    by_kind[name] = left.by_kind[k];
    words.push_back(
        fmt::format("{} {}", left.by_kind[k], event_kind_plural(static_cast<EventKind>(k))));
  }
  out.notes.push_back(fmt::format(
      "warning: cut at --max-events {}: {} events left out ({}), everything starting after "
      "ts {} us (CLOCK_MONOTONIC {} ns); {} open slices closed at the cut",
      o.max_events, left.events, fmt::join(words, ", "), micros(cut->cut_ns - origin), cut->cut_ns,
      writer.closed_at_cut()));
  return {{"reason", fmt::format("--max-events {}", o.max_events)},
          {"at_ns", std::to_string(cut->cut_ns)},
          {"at_ts", micros(cut->cut_ns - origin)},
          {"events_left_out", left.events},
          {"left_out_by_kind", by_kind},
          {"slices_closed_at_cut", writer.closed_at_cut()}};
}

// Pass 2 of a folded export: every stack, however many events it took.
ExportOutcome write_folded(const ExportOptions& o, const BundleInput& bundle, const FirstPass& pass,
                           const std::vector<const RunInput*>& runs, FoldedWeight weight,
                           OutputFile& file, ExportOutcome out) {
  FoldedWriter folded(runs, weight);
  AdmitAll everything;  // folded output is bounded by its distinct stacks, not by a cap
  if (auto error = replay(bundle, pass.facts, folded, everything, false); !error.empty()) {
    return failed(ExportFailure::bad_input, error);
  }
  if (folded.empty()) return failed(ExportFailure::bad_input, nothing_folded(weight, o));
  out.events_written = folded.write(file);
  if (auto error = file.commit(); !error.empty()) return failed(ExportFailure::bad_input, error);
  return out;
}

// Pass 2 of a Chrome trace: the events in time order up to the cut --max-events asks for.
ExportOutcome write_chrome(const ExportOptions& o, const BundleInput& bundle, FirstPass& pass,
                           const std::vector<const RunInput*>& runs, OutputFile& file,
                           ExportOutcome out) {
  const std::uint64_t origin = pass.all.weight > 0 ? pass.all.min_ns : 0;
  TimelineSink counter;
  const auto cut = find_cut(o.max_events, pass.all,
                            [&](Admission& a) { replay(bundle, pass.facts, counter, a, true); });
  AdmitUntil until(cut ? cut->cut_ns : 0, cut ? cut->room : 0);
  AdmitAll everything;
  Admission& admission = cut ? static_cast<Admission&>(until) : everything;

  ChromeWriter writer(file, pass.processes, origin);
  writer.open(runs);
  if (auto error = replay(bundle, pass.facts, writer, admission, true); !error.empty()) {
    return failed(ExportFailure::bad_input, error);
  }
  Json other = other_data(o, bundle, pass.facts, pass.processes, origin);
  other["events_written"] = writer.events();
  other["cut"] = cut_json(o, cut, until, origin, writer, out);
  writer.close(other.dump());
  out.events_written = writer.events();
  if (auto error = file.commit(); !error.empty()) return failed(ExportFailure::bad_input, error);
  return out;
}

std::string invalid_refusal(const std::string& bundle, const std::vector<std::string>& reasons) {
  return fmt::format(
      "refusing to export '{}': it is invalid ({}). Pass --allow-invalid to export it anyway, as "
      "evidence.",
      bundle, fmt::join(reasons, "; "));
}

}  // namespace

ExportOutcome export_bundle(const ExportOptions& o, std::ostream& stream) {
  // Validity is proven, not assumed (the reader's judgement, every checksum included). The
  // checksums are read on another thread while the bundle is read and a file export is written,
  // since its verdict is needed only before the file is committed; to stdout it is needed before
  // the first byte.
  const model::BundleReader reader(o.bundle);
  const BundleJudgement& verdict = reader.judgement();
  BundleInput bundle = read_bundle_input(reader, o.run);
  if (!bundle.error.empty()) {
    // An edited bundle may be unreadable too: that it is invalid is what its user must hear
    // (a directory without a manifest is no bundle, and bad input).
    const BundleValidity& v = verdict.get();
    if (has_manifest(o.bundle) && !v.valid && !o.allow_invalid) {
      return failed(ExportFailure::invalid_bundle, invalid_refusal(o.bundle, v.reasons));
    }
    return failed(ExportFailure::bad_input, bundle.error);
  }
  if (o.max_events == 0) return failed(ExportFailure::bad_input, "--max-events must be at least 1");
  ExportOutcome out;
  std::optional<std::optional<ExportOutcome>> settled;
  const auto settle = [&]() -> std::optional<ExportOutcome> {
    if (settled) return *settled;
    const BundleValidity& v = verdict.get();
    bundle.invalid = !v.valid;
    bundle.invalid_reason = fmt::format("{}", fmt::join(v.reasons, "; "));
    settled.emplace();
    if (bundle.invalid && !o.allow_invalid) {
      settled->emplace(failed(ExportFailure::invalid_bundle, invalid_refusal(o.bundle, v.reasons)));
    } else if (bundle.invalid) {
      out.notes.push_back(fmt::format("warning: exporting an invalid bundle (--allow-invalid): {}",
                                      bundle.invalid_reason));
    }
    return *settled;
  };

  // To stdout nothing can be taken back, so a guess that fails there would leave half an export.
  if (o.format == ExportFormat::chrome_json && !o.out.empty()) {
    if (const auto plan = plan_one_pass(bundle, o.run, o.max_events)) {
      if (export_one_pass(o, bundle, *plan, stream, out, settle)) return out;
    }
  }
  if (auto refused = settle()) return *refused;
  if (o.format == ExportFormat::jsonl) return export_jsonl(o, bundle, stream, std::move(out));

  FirstPass pass;
  if (auto error = first_pass(o, bundle, pass, out); !error.empty()) {
    return failed(ExportFailure::bad_input, error);
  }
  if (out.runs.empty()) {
    return failed(ExportFailure::bad_input,
                  fmt::format("nothing to export: no run of {} has span or syscall records "
                              "(baseline runs record none; pass --run ID to export one anyway)",
                              o.bundle));
  }
  std::vector<const RunInput*> runs;
  for (const RunInput& r : bundle.runs) runs.push_back(&r);
  pass.processes.assign(runs);
  OutputFile file(o.out, stream);
  if (auto error = file.open(); !error.empty()) return failed(ExportFailure::bad_input, error);
  if (const auto weight = folded_weight(o.format)) {
    return write_folded(o, bundle, pass, runs, *weight, file, std::move(out));
  }
  return write_chrome(o, bundle, pass, runs, file, std::move(out));
}

}  // namespace jbench::exports
