// The dominant-cost sentence: the cell in plain words, the top cost with its interval and its
// cost per operation, the observer it came from and that observer's own cost, and the smallest
// change the cell's baseline noise lets one see.
#include <fmt/format.h>

#include "cells.h"
#include "words.h"

namespace jbench::attribution {
namespace {

// Light totals are per harness phase: the sentence says what that includes.
std::string detail_words(const CellAttribution& c) {
  return c.mode == "light"
             ? " (totals per harness phase, the protocol's waits outside the workers' windows "
               "taken out)"
             : "";
}

}  // namespace

std::string dominant_sentence(const CellAttribution& c) {
  const std::string where = describe_cell(c.values);
  if (c.repetitions == 0)
    return fmt::format("{}: no successful {} run to attribute.", where, c.mode);
  if (!c.syscalls_attributed) {
    std::string why;
    for (const auto& n : c.not_attributed) {
      if (n.collector == "syscall") why = fmt::format("{}: {}", n.status, n.reason);
    }
    return fmt::format(
        "{}: no dominant cost can be named from {} mode: traced syscalls were not attributed ({}); "
        "{} of the measure time is unexplained.",
        where, c.mode, why.empty() ? "some runs lack them" : why,
        percent(c.parts.empty() ? 1.0 : c.parts.back().share.value));
  }
  const std::string observer =
      c.observer.median_ratio
          ? fmt::format("observed in {} mode{}, whose own cost here is {}", c.mode, detail_words(c),
                        ratio_with_interval(*c.observer.median_ratio, c.observer.ci_low,
                                            c.observer.ci_high))
          : fmt::format("observed in {} mode, whose own cost here is unknown (no paired baseline)",
                        c.mode);
  const std::string noise =
      c.detectable.fraction_of_wall
          ? fmt::format(
                "a change must save ≥ {} of measure time to be seen above this cell's "
                "baseline noise ({} baseline runs)",
                percent(*c.detectable.fraction_of_wall), c.detectable.baseline_runs)
          : fmt::format(
                "the baseline noise is unknown ({} baseline run{}), so no smallest visible "
                "change can be given",
                c.detectable.baseline_runs, c.detectable.baseline_runs == 1 ? "" : "s");
  if (!c.top_label) {
    return fmt::format("{}: no traced call or GC pause was observed in the measure phase; {}; {}.",
                       where, observer, noise);
  }
  const PartRow& top = c.parts.front();
  const PartRow& rest = c.parts.back();
  const std::string who =
      c.incarnations == 1
          ? fmt::format("the {} incarnation", lane_word(c.values))
          : fmt::format("the {} {} incarnations", c.incarnations, lane_word(c.values));
  const std::string of_time = c.threads > 1 ? "measure thread-time" : "measure wall time";
  // A span's part reads "on a CPU in <span>" already, a wait off the CPU "blocked in <call>".
  const bool says_where =
      top.kind == "span" || top.label.starts_with("blocked ") || top.label.starts_with("runnable ");
  const std::string what = says_where ? top.label : "in " + top.label;
  std::string s =
      fmt::format("{}: {} {} {} of {} {} ({} per {})", where, who,
                  c.incarnations == 1 ? "spends" : "spend", share_with_interval(top.share), of_time,
                  what, duration(top.ns_per_op.value), c.operation_unit);
  if (c.top_stays_on_top) {
    s += fmt::format(", ranked first in {} of resamples", percent(*c.top_stays_on_top));
  } else {
    s += ", 1 repetition: no interval";
  }
  s += "; " + observer;
  if (!top.attributable) {
    s += fmt::format(" — larger than this cost, so it is not attributable from {} mode", c.mode);
  }
  // The rest's share is the account's quality: above kRestWorthSaying the sentence says it.
  if (rest.share.value > kRestWorthSaying) {
    std::string_view unnamed = rest.label;
    if (unnamed.starts_with("rest: ")) unnamed.remove_prefix(6);
    s += fmt::format("; {} of the time is named by no part ({})", percent(rest.share.value),
                     unnamed);
  }
  s += "; " + noise + ".";
  return s;
}

}  // namespace jbench::attribution
