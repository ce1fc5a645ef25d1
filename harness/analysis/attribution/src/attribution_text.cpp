// The text report: per cell and mode the sentence, then the parts table, the spans, what could
// not be attributed; the scaling groups; the startup tables; the observer overhead. A report of
// an invalid bundle (--allow-invalid) carries the mark on every line.
#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "jbench/attribution/attribution_output.h"
#include "jbench/common/text.h"
#include "jbench/overhead_report/cell_order.h"
#include "words.h"

namespace jbench::attribution {
namespace {

constexpr std::size_t kMaxPartRows = 12;
constexpr std::size_t kMaxSpanRows = 8;
constexpr std::size_t kMaxWaitRows = 6;
constexpr std::size_t kMaxSampleRows = 8;
constexpr std::size_t kMaxOtherSyscallRows = 6;
constexpr std::size_t kMaxStartupCallRows = 40;

std::string interval(const Estimate& e, const std::function<std::string(double)>& f) {
  if (!e.low || !e.high) return f(e.value);
  return fmt::format("{} [{}–{}]", f(e.value), f(*e.low), f(*e.high));
}

// At most `width` characters (code points) of `text`, the last one "…" when it was cut.
std::string shortened(const std::string& text, std::size_t width) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;  // inside a character
    if (++chars == width) {
      std::size_t end = i + 1;
      while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) ++end;
      return end == text.size() ? text : text.substr(0, i) + "…";
    }
  }
  return text;
}

// The overview's two lines of one cell and mode: its largest part, then the rest and the cost.
std::pair<std::string, std::string> overview_square(const OverviewRow& o, std::size_t width) {
  std::string part =
      o.largest.empty() ? "no part but the rest" : percent(o.largest_share.value) + " " + o.largest;
  std::string second = "rest " + percent(o.rest_share.value);
  if (o.rest_over_limit) second += " (over 5%)";
  second += " · cost " + (o.cost ? fmt::format("×{:.2f}", o.cost->value) : "not measured");
  return {shortened(part, width), shortened(second, width)};
}

// The first block: cells down, traced modes across (docs/report.md, "Overview").
void overview_text(std::ostream& o, const std::vector<OverviewRow>& rows) {
  if (rows.empty()) return;
  constexpr std::size_t kWidth = 44;
  std::vector<std::string> cells;
  std::vector<std::string> modes;
  std::size_t cell_width = 4;
  for (const OverviewRow& r : rows) {
    if (std::find(cells.begin(), cells.end(), r.cell) == cells.end()) cells.push_back(r.cell);
    if (std::find(modes.begin(), modes.end(), r.mode) == modes.end()) modes.push_back(r.mode);
    cell_width = std::max(cell_width, r.cell.size());
  }
  std::sort(modes.begin(), modes.end(), [](const auto& a, const auto& b) {
    return overhead_report::mode_rank(a) < overhead_report::mode_rank(b);
  });
  o << "\nOverview — per cell and traced mode: the largest part and its share of the measure "
       "phase,\nwhat no part names (rest), and what observing cost (the paired baseline's "
       "throughput over the mode's)\n";
  const auto line = [](std::string text) { return text.erase(text.find_last_not_of(' ') + 1); };
  std::string head = fmt::format("  {:<{}}", "cell", cell_width);
  for (const auto& m : modes) head += fmt::format("  {:<{}}", m, kWidth);
  o << line(head) << "\n";
  for (const auto& cell : cells) {
    std::string first = fmt::format("  {:<{}}", cell, cell_width);
    std::string second = fmt::format("  {:<{}}", "", cell_width);
    for (const auto& m : modes) {
      const auto it = std::find_if(rows.begin(), rows.end(), [&](const OverviewRow& r) {
        return r.cell == cell && r.mode == m;
      });
      const auto [a, b] = it == rows.end() ? std::pair<std::string, std::string>{"—", ""}
                                           : overview_square(*it, kWidth);
      first += fmt::format("  {:<{}}", a, kWidth);
      second += fmt::format("  {:<{}}", b, kWidth);
    }
    o << line(first) << "\n" << line(second) << "\n";
  }
}

// Who ended the waits, largest first: "worker 2 spent 31% [27–35] of its time in flock LOCK_EX on
// db.lock until woken by worker 1".
void wait_for_text(std::ostream& o, const CellAttribution& c) {
  if (c.wait_for.empty()) return;
  o << "  wait-for (who ended each wait; a share of the waiting worker's time, inside the "
       "parts):\n";
  for (std::size_t i = 0; i < c.wait_for.size() && i < kMaxWaitRows; ++i) {
    const WaitRow& w = c.wait_for[i];
    o << fmt::format(
        "    worker {} spent {} of its time {} until woken by {} ({} per {})\n", w.worker,
        share_with_interval(w.share),
        w.what.starts_with("blocked") || w.what.starts_with("runnable") ? w.what : "in " + w.what,
        w.waker, duration(w.ns_per_op.value), c.operation_unit);
  }
  if (c.wait_for.size() > kMaxWaitRows)
    o << fmt::format("    ... {} smaller rows in --json\n", c.wait_for.size() - kMaxWaitRows);
}

// The on-CPU samples by function and span, largest first.
void cpu_samples_text(std::ostream& o, const CellAttribution& c) {
  if (!c.cpu_samples) return;
  const CpuSamples& s = *c.cpu_samples;
  o << fmt::format(
      "  on-CPU samples ({:.0f} Hz per CPU, {:.0f} per run in the measure phase; a share of the "
      "samples, each one period of CPU time):\n",
      s.hz, s.samples_per_run);
  if (s.rows.empty()) o << "    none: the workload was never on a CPU when the clock fired\n";
  for (std::size_t i = 0; i < s.rows.size() && i < kMaxSampleRows; ++i) {
    const SampleRow& r = s.rows[i];
    o << fmt::format(
        "    {} {}{}{}\n", share_with_interval(r.share), r.function,
        r.span.empty() ? " (outside every span)" : " in " + r.span,
        r.ns_per_op ? fmt::format(" (≈ {} per {})", duration(*r.ns_per_op), c.operation_unit) : "");
  }
  if (s.rows.size() > kMaxSampleRows)
    o << fmt::format("    ... {} smaller rows in --json\n", s.rows.size() - kMaxSampleRows);
}

// The system calls counted but not followed as calls, the longest first.
void other_syscalls_text(std::ostream& o, const CellAttribution& c) {
  if (c.other_syscalls.empty()) return;
  o << "  other system calls (counted by the compiled tracer, not followed as calls; per harness "
       "phase, overlapping the parts):\n";
  for (std::size_t i = 0; i < c.other_syscalls.size() && i < kMaxOtherSyscallRows; ++i) {
    const OtherSyscallRow& r = c.other_syscalls[i];
    o << fmt::format("    {:<20} {:.3g} calls and {} per {} ({} of the threads' time{})\n", r.name,
                     r.calls_per_op, interval(r.ns_per_op, [](double v) { return duration(v); }),
                     c.operation_unit, share_with_interval(r.share),
                     r.errors_per_op > 0 ? fmt::format("; {:.3g} failed", r.errors_per_op) : "");
  }
  if (c.other_syscalls.size() > kMaxOtherSyscallRows)
    o << fmt::format("    ... {} more in --json\n", c.other_syscalls.size() - kMaxOtherSyscallRows);
}

void cell_text(std::ostream& o, const CellAttribution& c) {
  o << fmt::format(
      "\n{} · {} mode · {} repetition{} · {} incarnation{} · measure {} per run, {:.0f} {}, "
      "{:.0f} statements\n",
      c.cell, c.mode, c.repetitions, c.repetitions == 1 ? "" : "s", c.incarnations,
      c.incarnations == 1 ? "" : "s", duration(c.wall_ns_per_run), c.operations_per_run,
      c.operation_unit == "batch" ? "batches" : c.operation_unit + "s", c.statements_per_run);
  o << "  " << c.sentence << "\n";
  o << fmt::format("  {:<4} {:<52} {:>20} {:>24} {:>9}\n", "rank", "part", "share [95%]",
                   "per op [95%]", "calls/op");
  std::size_t shown = 0;
  for (const auto& p : c.parts) {
    if (p.kind != "rest" && shown++ >= kMaxPartRows) continue;
    o << fmt::format("  {:<4} {:<52} {:>20} {:>24} {:>9}{}\n",
                     p.rank ? std::to_string(*p.rank) : "",
                     p.label.size() > 52 ? p.label.substr(0, 49) + "..." : p.label,
                     share_with_interval(p.share), interval(p.ns_per_op, duration),
                     p.count_per_op ? fmt::format("{:.3g}", *p.count_per_op) : "",
                     p.attributable ? "" : "  (below the observer's cost: not attributable)");
  }
  if (shown > kMaxPartRows)
    o << fmt::format("  ... {} smaller parts in --json\n", shown - kMaxPartRows);
  std::string beside;
  if (c.scheduler) {
    beside += fmt::format(
        "scheduler (kernel accounting, overlaps the parts): on-CPU {}, runnable (waiting for a "
        "CPU) {}, blocked {}",
        share_with_interval(c.scheduler->on_cpu), share_with_interval(c.scheduler->runnable),
        share_with_interval(c.scheduler->blocked));
  } else if (c.cpu_share) {
    beside += fmt::format("on-CPU (cpu collector, overlaps the parts) {}", percent(*c.cpu_share));
  }
  beside += fmt::format("{}bridge writer thread (observer, in no part) {}",
                        beside.empty() ? "" : "; ", percent(c.observer.writer_thread_share));
  if (c.protocol_wait_share) {
    beside += fmt::format(
        "; the protocol's waits outside the workers' windows, taken out of read "
        "(light) {}",
        percent(*c.protocol_wait_share));
  }
  if (c.observer.observer_share)
    beside += fmt::format("; observer's own cost {}", percent(*c.observer.observer_share));
  o << "  beside: " << beside << "\n";
  if (c.other_mode) o << "  modes: " << c.agreement_note << "\n";
  for (const auto& n : c.not_attributed) {
    o << fmt::format("  not attributed: {} — {} {}: {}\n", n.part, n.collector, n.status, n.reason);
  }
  if (!c.spans.empty()) {
    o << fmt::format("  {:<40} {:>8} {:>8} {:>8} {:>9} {:>8}\n", "span (name:plan class)", "per op",
                     "total", "self", "syscalls", "GC");
    for (std::size_t i = 0; i < c.spans.size() && i < kMaxSpanRows; ++i) {
      const auto& s = c.spans[i];
      o << fmt::format("  {:<40} {:>8.2f} {:>8} {:>8} {:>9} {:>8}\n",
                       s.plan_class.empty() ? s.name : s.name + ":" + s.plan_class, s.count_per_op,
                       percent(s.total_share), percent(s.self_share), percent(s.syscall_share),
                       percent(s.gc_share));
    }
  }
  wait_for_text(o, c);
  cpu_samples_text(o, c);
  other_syscalls_text(o, c);
  for (const auto& n : c.notes) o << "  note: " << n << "\n";
}

}  // namespace

std::string attribution_to_text(const AttributionReport& r) {
  std::ostringstream o;
  o << fmt::format(
      "Attribution of {} — where the measure phase's time went (docs/attribution.md)\n", r.bundle);
  if (!r.valid) {
    for (const auto& why : r.invalid_because) o << "the bundle is INVALID: " << why << "\n";
  }
  if (r.bundle_status != "complete") {
    o << fmt::format(
        "note: the bundle's status is '{}': figures come from its successful runs only\n",
        r.bundle_status);
  }
  if (r.cells.empty()) {
    o << "\nthe bundle has no successful light or full run, so nothing can be attributed "
         "(baseline runs record no calls)\n";
  }
  overview_text(o, r.overview);
  for (const auto& c : r.cells) cell_text(o, c);
  if (!r.scaling.empty()) o << "\nScaling along workers (baseline runs)\n";
  for (const auto& g : r.scaling) {
    o << "  " << g.sentence << "\n";
    o << fmt::format("    {:>7} {:>30} {:>26}\n", "workers", "throughput ops/s [95%]",
                     "efficiency [95%]");
    for (const auto& p : g.points) {
      o << fmt::format("    {:>7} {:>30} {:>26}\n", p.workers,
                       interval(p.throughput, [](double v) { return fmt::format("{:.0f}", v); }),
                       p.efficiency ? share_with_interval(*p.efficiency) : "");
    }
    for (const auto& c : g.growing) {
      o << fmt::format("    grows: {} {} → {} per op (×{:.1f})\n", c.label,
                       duration(c.ns_per_op_first), duration(c.ns_per_op_last), c.growth);
    }
  }
  if (!r.startup.empty()) o << "\nStartup, per incarnation (the first traced run of each cell)\n";
  for (const auto& t : r.startup) {
    o << fmt::format("  {} worker {} (pid {}): startup phase {}\n", t.run, t.worker, t.pid,
                     duration(static_cast<double>(t.startup_ns)));
    for (const auto& [step, ns] : t.steps)
      o << fmt::format("    {:<78} {:>10}\n", step, duration(static_cast<double>(ns)));
    if (!t.calls.empty()) o << "    startup calls in order (call, fd, path, request; whose):\n";
    for (std::size_t i = 0; i < t.calls.size() && i < kMaxStartupCallRows; ++i) {
      const auto& c = t.calls[i];
      const std::string times = c.count > 1 ? fmt::format(" ×{}", c.count) : "";
      if (is_off_cpu(c.call)) {  // a wait off the CPU: no descriptor, no file
        o << fmt::format("      {}{} {} — {}\n", c.call, times,
                         duration(static_cast<double>(c.duration_ns)), c.belongs_to);
        continue;
      }
      o << fmt::format("      {}{} fd {} {}{} {} — {}\n", c.call, times, c.fd,
                       c.path.empty() ? "-" : c.path, c.request.empty() ? "" : " " + c.request,
                       duration(static_cast<double>(c.duration_ns)), c.belongs_to);
    }
    const std::size_t more =
        t.calls.size() > kMaxStartupCallRows ? t.calls.size() - kMaxStartupCallRows : 0;
    if (more + t.calls_cut)
      o << fmt::format("      ... {} more in --json{}\n", more,
                       t.calls_cut ? fmt::format(" ({} past its bound)", t.calls_cut) : "");
  }
  o << overhead_report::counted_to_text(r.counted);
  o << overhead_report::project_counters_to_text(r.project_counters);
  o << "\nObserver overhead against the paired baselines (docs/report.md)\n"
    << overhead_report::overhead_to_text(r.overhead);
  for (const auto& w : r.warnings) o << "warning: " << w << "\n";
  return r.valid ? o.str() : mark_every_line(o.str(), "[INVALID BUNDLE] ");
}

}  // namespace jbench::attribution
