// Each cell's account in full: its facts, the table of its parts (and of what was not
// attributed, with the collector's status and reason), the evidence behind the ranking, spans.
#include <fmt/format.h>

#include "format.h"
#include "html_escape.h"
#include "sections.h"

namespace jbench::html_pages {

using nlohmann::json;

namespace {

std::string td(const std::string& content, std::string_view cls = {}) {
  if (cls.empty()) return "<td>" + escape(content) + "</td>";
  return fmt::format("<td class=\"{}\">{}</td>", cls, escape(content));
}

std::string or_dash(const std::optional<double>& v, std::string (*show)(double)) {
  return v ? show(*v) : "—";
}

// "2.9 ms [2.8 ms–3 ms]", or the point alone when the interval is missing.
std::string per_op(const json& part) {
  const auto v = number(field(part, "ns_per_op"));
  if (!v) return "—";
  const auto lo = number(field(part, "ns_per_op_low")), hi = number(field(part, "ns_per_op_high"));
  return lo && hi ? fmt::format("{} [{}–{}]", duration(*v), duration(*lo), duration(*hi))
                  : duration(*v);
}

std::string values_text(const json& values) {
  std::string out;
  if (!values.is_object()) return out;
  for (const auto& [axis, value] : values.items()) {
    if (!out.empty()) out += ", ";
    out += axis + "=" + text(value);
  }
  return out;
}

std::string facts(const json& cell) {
  std::vector<std::string> items;
  if (auto v = values_text(field(cell, "values")); !v.empty()) items.push_back(v);
  if (auto r = number(field(cell, "repetitions"))) {
    items.push_back(count_of(*r, "repetition"));
  }
  if (auto p = text(field(cell, "phase")); !p.empty()) items.push_back(p + " phase");
  if (auto n = number(field(cell, "incarnations"))) {
    items.push_back(count_of(*n, "workload incarnation"));
  }
  if (auto w = number(field(cell, "wall_ns_per_run"))) {
    items.push_back(duration(*w) + " wall time per run");
  }
  if (auto o = number(field(cell, "operations_per_run"))) {
    const std::string unit = text(field(cell, "operation_unit"));
    items.push_back(count_of(*o, unit.empty() ? "operation" : unit) + " per run");
  }
  std::string out = "<p class=\"cell-facts\">";
  for (std::size_t i = 0; i < items.size(); ++i) {
    out += (i ? " · " : "") + escape(items[i]);
  }
  return out + "</p>\n";
}

std::string parts_table(const json& cell) {
  std::string unit = text(field(cell, "operation_unit"));
  if (unit.empty()) unit = "operation";
  std::string out = fmt::format(
      "<table class=\"parts\"><thead><tr><th>part</th><th>share [95%]</th><th>per {0}</th>"
      "<th>calls per {0}</th><th>attributable</th></tr></thead><tbody>\n",
      escape(unit));
  const json& reps = field(cell, "repetitions");
  const std::vector<const json*> parts = ranked_parts(cell);
  for (const json* part : parts) {
    const auto share = number(field(*part, "share"));
    const json& attributable = field(*part, "attributable");
    std::string flag = "—";
    if (attributable.is_boolean()) {
      flag = attributable.get<bool>() ? "yes" : "no: smaller than the observer's own cost";
    }
    std::string label = text(field(*part, "label"));
    const std::string path = text(field(*part, "path"));
    out += fmt::format("<tr class=\"{}\">", text(field(*part, "kind")) == "rest" ? "rest" : "part");
    out += path.empty() ? td(label)
                        : fmt::format("<td>{}<br><span class=\"path\">{}</span></td>",
                                      escape(label), escape(path));
    out +=
        td(share ? percent(*share) + " " +
                       share_interval(field(*part, "share_low"), field(*part, "share_high"), reps)
                 : "—");
    out += td(per_op(*part));
    out += td(or_dash(number(field(*part, "count_per_op")), plain));
    out += td(flag, attributable == false ? "not-attributable" : "");
    out += "</tr>\n";
  }
  for (const json& na : array_or_empty(field(cell, "not_attributed"))) {
    out += fmt::format(
        "<tr class=\"not-attributed\"><td>{}</td><td colspan=\"4\">not attributed: the {} "
        "collector is {}{}</td></tr>\n",
        escape(text(field(na, "part"))), escape(text(field(na, "collector"))),
        escape(text(field(na, "status"))),
        text(field(na, "reason")).empty() ? "" : " — " + escape(text(field(na, "reason"))));
  }
  if (parts.empty() && array_or_empty(field(cell, "not_attributed")).empty()) {
    out += "<tr><td colspan=\"5\" class=\"empty\">no parts: not enough evidence</td></tr>\n";
  }
  return out + "</tbody></table>\n";
}

std::string attributed_line(const json& cell) {
  const auto f = number(field(cell, "attributed_fraction"));
  if (!f) return "the attributed fraction of the time is unknown";
  return *f >= 1.0 ? "all of the time was attributed"
                   : "the shares are of the " + percent(*f) +
                         " of the time that was attributed, not of the whole";
}

std::string top_line(const json& top) {
  const std::string label = text(field(top, "label"));
  const auto stays = number(field(top, "stays_on_top"));
  const auto resamples = number(field(top, "resamples"));
  if (label.empty()) return "top cost: not enough evidence";
  if (!stays || !resamples) return "top cost: " + label + " (no resamples: 1 repetition)";
  return fmt::format("top cost: {} stays on top in {} of {} resamples", label, percent(*stays),
                     plain(*resamples));
}

std::string observer_line(const json& obs) {
  const auto median = number(field(obs, "median_ratio"));
  if (!median) return "observer cost: not measured (no paired baseline)";
  std::string mode = text(field(obs, "mode"));
  std::string out = fmt::format("observed in {} mode, whose own cost here is {}",
                                mode.empty() ? "an unnamed" : mode, ratio(*median));
  const auto lo = number(field(obs, "ci_low")), hi = number(field(obs, "ci_high"));
  out += lo && hi ? fmt::format(" [{:.2f}–{:.2f}]", *lo, *hi) : " (no interval)";
  if (auto pairs = number(field(obs, "pairs"))) out += " over " + count_of(*pairs, "pair");
  if (auto s = number(field(obs, "observer_share"))) {
    out += "; the observer's cost is " + percent(*s) + " of the phase time";
  }
  if (auto w = number(field(obs, "writer_thread_share"))) {
    out += "; the bridge writer thread's " + percent(*w) + " is in no share";
  }
  return out;
}

std::string noise_line(const json& mde) {
  const auto f = number(field(mde, "fraction_of_wall"));
  if (!f) return "smallest visible change: not enough evidence (too few baseline runs)";
  std::string out = "a change must save ≥ " + percent(*f) +
                    " of the phase time to be seen above this cell's baseline noise";
  const auto runs = number(field(mde, "baseline_runs"));
  const auto cv = number(field(mde, "baseline_cv"));
  if (runs && cv) out += fmt::format(" ({}, CV {})", count_of(*runs, "baseline run"), percent(*cv));
  return out;
}

std::string agreement_line(const json& agreement) {
  const std::string other = text(field(agreement, "other_mode"));
  const json& agrees = field(agreement, "agrees");
  if (other.empty() || !agrees.is_boolean()) return "no second trace mode to compare rankings with";
  std::string out = fmt::format("{} mode {} with this ranking", other,
                                agrees.get<bool>() ? "agrees" : "DISAGREES");
  if (auto note = text(field(agreement, "note")); !note.empty()) out += ": " + note;
  return out;
}

std::string spans_table(const json& spans) {
  if (array_or_empty(spans).empty()) return {};
  std::string out =
      "<table class=\"spans\"><thead><tr><th>span</th><th>plan class</th><th>per op</th>"
      "<th>total</th><th>self</th><th>in syscalls</th><th>in GC</th></tr></thead><tbody>\n";
  for (const json& s : spans) {
    out += "<tr>" + td(text(field(s, "name"))) + td(text(field(s, "plan_class"))) +
           td(or_dash(number(field(s, "count_per_op")), plain)) +
           td(or_dash(number(field(s, "total_share")), percent)) +
           td(or_dash(number(field(s, "self_share")), percent)) +
           td(or_dash(number(field(s, "syscall_share")), percent)) +
           td(or_dash(number(field(s, "gc_share")), percent)) + "</tr>\n";
  }
  return out + "</tbody></table>\n";
}

// Who ended the waits: per waiting worker, what it waited in and who woke it (inside the parts).
std::string wait_for_table(const json& rows, const json& repetitions) {
  if (array_or_empty(rows).empty()) return {};
  std::string out =
      "<table class=\"wait-for\"><caption>who ended the waits (a share of the waiting worker's "
      "time, inside the parts)</caption><thead><tr><th>worker</th><th>waited in</th>"
      "<th>woken by</th><th>share [95%]</th><th>per op</th></tr></thead><tbody>\n";
  constexpr std::size_t kRows = 12;
  std::size_t shown = 0;
  for (const json& w : rows) {
    if (shown++ == kRows) break;
    const auto share = number(field(w, "share"));
    out += "<tr>" + td(or_dash(number(field(w, "worker")), plain)) + td(text(field(w, "what"))) +
           td(text(field(w, "woken_by"))) +
           td(share ? percent(*share) + " " +
                          share_interval(field(w, "share_low"), field(w, "share_high"), repetitions)
                    : "—") +
           td(or_dash(number(field(w, "ns_per_op")), duration)) + "</tr>\n";
  }
  if (rows.size() > kRows) {
    out +=
        fmt::format("<tr><td colspan=\"5\" class=\"empty\">{} smaller rows in --json</td></tr>\n",
                    rows.size() - kRows);
  }
  return out + "</tbody></table>\n";
}

// The system calls the compiled tracer counts but does not follow as calls, the longest first
// (per harness phase, overlapping the parts).
std::string other_syscalls_table(const json& rows, const json& repetitions) {
  if (array_or_empty(rows).empty()) return {};
  std::string out =
      "<table class=\"other-syscalls\"><caption>other system calls (counted, not followed as "
      "calls; per harness phase, overlapping the parts)</caption><thead><tr><th>call</th>"
      "<th>calls per op</th><th>time per op</th><th>share of the threads' time [95%]</th>"
      "<th>failed per op</th></tr></thead><tbody>\n";
  constexpr std::size_t kRows = 12;
  std::size_t shown = 0;
  for (const json& r : rows) {
    if (shown++ == kRows) break;
    const auto share = number(field(r, "share"));
    out += "<tr>" + td(text(field(r, "name"))) +
           td(or_dash(number(field(r, "calls_per_op")), plain)) +
           td(or_dash(number(field(r, "ns_per_op")), duration)) +
           td(share ? percent(*share) + " " +
                          share_interval(field(r, "share_low"), field(r, "share_high"), repetitions)
                    : "—") +
           td(or_dash(number(field(r, "errors_per_op")), plain)) + "</tr>\n";
  }
  if (rows.size() > kRows) {
    out += fmt::format("<tr><td colspan=\"5\" class=\"empty\">{} more in --json</td></tr>\n",
                       rows.size() - kRows);
  }
  return out + "</tbody></table>\n";
}

// The scheduler's split of the same time (the kernel's accounting), beside the parts.
std::string scheduler_line(const json& sched, const json& repetitions) {
  std::string out = "the scheduler (kernel accounting, overlapping the parts, never subtracted):";
  const char* sep = " ";
  for (const auto& [key, name] :
       {std::pair{"on_cpu", "on-CPU"}, std::pair{"runnable", "runnable (waiting for a CPU)"},
        std::pair{"blocked", "blocked"}}) {
    const json& e = field(sched, key);
    const auto share = number(field(e, "share"));
    out += fmt::format("{}{} {} {}", sep, name, share ? percent(*share) : "unknown",
                       share_interval(field(e, "low"), field(e, "high"), repetitions));
    sep = ", ";
  }
  return out;
}

}  // namespace

std::string cell_tables_section(const json& cells) {
  std::string out = "<section id=\"cells\">\n<h2>Each cell's account</h2>\n";
  std::size_t index = 0;
  for (const json& cell : array_or_empty(cells)) {
    out += fmt::format("<section class=\"cell\" id=\"account-{}\" data-cell=\"{}\">\n<h3>{}</h3>\n",
                       index++, escape(text(field(cell, "cell"))), escape(cell_name(cell)));
    // The overview's squares land here: the cell's sentence first, then its bar, a click away.
    if (const std::string sentence = text(field(cell, "sentence")); !sentence.empty()) {
      out += "<p class=\"account-sentence\">" + escape(sentence) + "</p>\n";
    }
    out +=
        fmt::format("<p class=\"see-bar\"><a href=\"#bar-{}\">its bar above</a></p>\n", index - 1);
    out += facts(cell) + parts_table(cell);
    std::vector<std::string> lines = {attributed_line(cell), top_line(field(cell, "top")),
                                      observer_line(field(cell, "observer")),
                                      noise_line(field(cell, "min_detectable_effect")),
                                      agreement_line(field(cell, "mode_agreement"))};
    if (const json& sched = field(cell, "scheduler"); sched.is_object()) {
      lines.push_back(scheduler_line(sched, field(cell, "repetitions")));
    } else if (auto cpu = number(field(cell, "cpu_share"))) {
      lines.push_back("on-CPU (the cpu collector, overlapping the parts, never subtracted): " +
                      percent(*cpu));
    }
    out += "<ul class=\"evidence\">\n";
    for (const std::string& line : lines) out += "<li>" + escape(line) + "</li>\n";
    out += "</ul>\n" + spans_table(field(cell, "spans")) +
           wait_for_table(field(cell, "wait_for"), field(cell, "repetitions")) +
           other_syscalls_table(field(cell, "other_syscalls"), field(cell, "repetitions")) +
           timeline_figure(field(cell, "timeline")) + "</section>\n";
  }
  return out + "</section>\n";
}

}  // namespace jbench::html_pages
