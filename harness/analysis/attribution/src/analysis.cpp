#include "jbench/attribution/analysis.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "cells.h"
#include "jbench/overhead_report/cell_order.h"
#include "scaling.h"

namespace jbench::attribution {
namespace {

// Where light and full both ran a cell: do they put the same call first? Light has no files,
// so the comparison is by call.
void compare_modes(CellAttribution& light, CellAttribution& full) {
  const auto top_call = [](const CellAttribution& c) -> std::string {
    for (const auto& p : c.parts) {
      if (p.kind == "syscall") {
        CallKey by_call;  // light has no files: the call alone, as the parts name it
        by_call.call = p.key.call;
        return by_call.label();
      }
      if (p.kind == "gc") return "GC pauses";
    }
    return "";
  };
  const std::string a = top_call(light);
  const std::string b = top_call(full);
  if (a.empty() || b.empty()) return;
  const bool agree = a == b;
  // Said of calls only: full also names on-CPU time by span and function, which light cannot.
  const std::string note = agree ? fmt::format(
                                       "among calls and GC pauses, light and full both rank {} "
                                       "first",
                                       a)
                                 : fmt::format(
                                       "among calls and GC pauses, light ranks {} first, full "
                                       "ranks {} first: light "
                                       "totals are per harness phase and count a call wholly "
                                       "where it entered, full detail times each call inside "
                                       "the worker's own window; rank by full",
                                       a, b);
  light.other_mode = "full";
  full.other_mode = "light";
  light.modes_agree = full.modes_agree = agree;
  light.agreement_note = full.agreement_note = note;
}

IncarnationRow incarnation_row(const RunAccount& a, const Incarnation& inc) {
  IncarnationRow row{a.id, std::string(trace_mode_name(a.trace)), inc.worker, inc.pid, {}};
  for (std::size_t p = 0; p < kPhases; ++p) {
    const PhaseAccount& ph = inc.phases[p];
    PhaseRow r;
    r.phase = collectors::kPhases[p];
    r.wall_ns = ph.wall_ns;
    r.threads = ph.threads;
    r.syscall_ns = ph.syscall_ns();
    r.gc_ns = ph.gc_ns;
    r.span_ns = ph.in_span_ns();
    r.rest_ns = ph.rest_ns();
    r.writer_ns = ph.writer_calls.ns;
    r.clamped_ns = ph.clamped_ns;
    r.protocol_ns = ph.protocol_ns;
    r.cpu_ns = ph.cpu_ns;
    r.operations = ph.operations;
    for (const auto& [key, cost] : ph.calls) r.top_calls.emplace_back(key.label(), cost.ns);
    std::sort(r.top_calls.begin(), r.top_calls.end(),
              [](const auto& x, const auto& y) { return x.second > y.second; });
    if (r.top_calls.size() > kTopCallsPerPhase) r.top_calls.resize(kTopCallsPerPhase);
    row.phases.push_back(std::move(r));
  }
  return row;
}

}  // namespace

AttributionReport analyse(const BundleAccounts& bundle, const BundleValidity& validity) {
  AttributionReport r;
  r.bundle = bundle.name;
  r.bundle_status = bundle.status;
  r.valid = validity.valid;
  r.invalid_because = validity.reasons;
  r.overhead = overhead_report::compute_overhead(bundle.runs);
  r.counted = bundle.counted;
  r.project_counters = bundle.project_counters;
  r.syscall_records = bundle.syscall_records;
  r.warnings = bundle.skipped;

  std::map<std::pair<std::string, std::string>, std::vector<const RunAccount*>> groups;
  for (const RunAccount& a : bundle.accounts) {
    if (!a.problems.empty()) {
      for (const auto& p : a.problems)
        r.warnings.push_back(fmt::format("{}: account refused: {}", a.id, p));
      continue;
    }
    groups[{a.cell, std::string(trace_mode_name(a.trace))}].push_back(&a);
  }
  // (cell, mode) in the matrix's axis order, modes in the documented order (report/cell_order.h).
  std::vector<std::pair<std::string, std::string>> order;
  for (const auto& cell : overhead_report::ordered_cells(bundle.runs)) {
    if (groups.count(cell)) order.push_back(cell);
  }
  std::map<std::string, std::vector<double>> baselines;
  for (const auto& run : bundle.runs) {
    if (run.trace == TraceMode::baseline && run.status == RunStatus::ok)
      baselines[run.cell].push_back(run.throughput);
  }
  for (const auto& key : order) {
    CellInputs in{key.first, key.second, groups[key], nullptr, baselines[key.first]};
    for (const auto& row : r.overhead.rows) {
      if (row.cell == key.first && row.mode == key.second) in.overhead = &row;
    }
    r.cells.push_back(analyse_cell(in));
  }
  for (auto& a : r.cells) {
    for (auto& b : r.cells) {
      if (&a != &b && a.cell == b.cell && a.mode == "light" && b.mode == "full")
        compare_modes(a, b);
    }
  }
  for (auto& c : r.cells) c.sentence = dominant_sentence(c);
  for (const auto& c : r.cells) r.overview.push_back(overview_row(c));
  r.scaling = analyse_scaling(bundle.runs, r.cells);
  for (const auto& key : order) {
    for (const RunAccount* a : groups[key]) {
      for (const Incarnation& inc : a->incarnations)
        r.incarnations.push_back(incarnation_row(*a, inc));
    }
  }

  // Startup per incarnation, from the first full run of each cell (light where none ran full).
  std::map<std::string, const RunAccount*> first;
  for (const auto& key : order) {
    const RunAccount* a = groups[key].front();
    auto& slot = first[key.first];
    if (!slot || (slot->trace != TraceMode::full && a->trace == TraceMode::full)) slot = a;
  }
  for (const auto& [cell, a] : first) {
    for (const Incarnation& inc : a->incarnations) {
      StartupTable t;
      t.run = a->id;
      t.worker = inc.worker;
      t.pid = inc.pid;
      t.steps = inc.startup_steps;
      t.startup_ns = inc.phases[0].wall_ns;
      t.calls = inc.startup_calls;
      t.calls_cut = inc.startup_calls_cut;
      r.startup.push_back(std::move(t));
    }
  }
  return r;
}

}  // namespace jbench::attribution
