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
  std::string s =
      fmt::format("{}: {} {} {} of {} in {} ({} per {})", where, who,
                  c.incarnations == 1 ? "spends" : "spend", share_with_interval(top.share), of_time,
                  top.label, duration(top.ns_per_op.value), c.operation_unit);
  if (c.top_stays_on_top) {
    s += fmt::format(", ranked first in {} of resamples", percent(*c.top_stays_on_top));
  } else {
    s += ", 1 repetition: no interval";
  }
  s += "; " + observer;
  if (!top.attributable) {
    s += fmt::format(" — larger than this cost, so it is not attributable from {} mode", c.mode);
  }
  if (rest.share.value > top.share.value) {
    // With the compiled tracer's off-CPU parts, what is left was on a CPU.
    if (rest.label == kRestOnCpu) {
      s += fmt::format(
          "; {} of the time was on a CPU outside every traced call (user code, untraced calls)",
          percent(rest.share.value));
    } else {
      s += fmt::format(
          "; {} of the time is in no traced call or GC pause (user code, untraced calls, "
          "waiting)",
          percent(rest.share.value));
    }
  }
  s += "; " + noise + ".";
  return s;
}

}  // namespace jbench::attribution
