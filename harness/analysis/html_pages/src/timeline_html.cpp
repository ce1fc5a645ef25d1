// One run's measure phase over time, per incarnation (the report's cell `timeline`, full
// detail): a strip per incarnation, one column per bin, its height split into what the workload
// threads did in that stretch — blocked off the CPU, runnable (waiting for a CPU), in traced
// calls — over a background of the rest, time on a CPU outside every call.
#include <fmt/format.h>

#include "format.h"
#include "html_escape.h"
#include "sections.h"
#include "svg.h"

namespace jbench::html_pages {

using nlohmann::json;

namespace {

constexpr double kWidth = 600;
constexpr double kLabel = 70;  // the incarnation's name, left of its strip
constexpr double kRow = 22;
constexpr double kGap = 6;
constexpr const char* kOnCpu = "#59a14f";
constexpr const char* kInCalls = "#4e79a7";
constexpr const char* kBlocked = "#e15759";
constexpr const char* kRunnable = "#f28e2b";

// The share at `i` of a row's series, 0 where the report has none.
double at(const json& series, std::size_t i) {
  const json& values = array_or_empty(series);
  return i < values.size() ? number(values[i]).value_or(0.0) : 0.0;
}

}  // namespace

std::string timeline_figure(const json& timeline) {
  const json& rows = array_or_empty(field(timeline, "incarnations"));
  const auto bins = number(field(timeline, "bins"));
  if (rows.empty() || !bins || *bins < 1) return {};
  const auto n = static_cast<std::size_t>(*bins);
  const double column = kWidth / static_cast<double>(n);
  const double height = static_cast<double>(rows.size()) * (kRow + kGap);
  const std::string run = text(field(timeline, "run"));
  Svg svg(kLabel + kWidth, height, "on and off the CPU over the measure phase of " + run);
  double y = 0;
  for (const json& row : rows) {
    const auto worker = number(field(row, "worker"));
    svg.text(0, y + kRow - 6, worker ? fmt::format("worker {:.0f}", *worker) : "worker ?", {});
    svg.rect(kLabel, y, kWidth, kRow, {{"fill", kOnCpu}}, "on a CPU outside traced calls");
    for (std::size_t i = 0; i < n; ++i) {
      double top = y + kRow;  // stacked up from the strip's bottom
      for (const auto& [key, colour] :
           {std::pair{"in_calls", kInCalls}, std::pair{"blocked", kBlocked},
            std::pair{"runnable", kRunnable}}) {
        const double h = std::min(1.0, at(field(row, key), i)) * kRow;
        if (h < 0.05) continue;
        top -= h;
        svg.rect(kLabel + static_cast<double>(i) * column, top, column, h, {{"fill", colour}});
      }
    }
    y += kRow + kGap;
  }
  const auto window = number(field(timeline, "window_ns"));
  return fmt::format(
      "<figure class=\"timeline\">{}<figcaption>run {}, its measure phase ({}) in {} steps: "
      "<span style=\"color:{}\">■</span> on a CPU outside traced calls, "
      "<span style=\"color:{}\">■</span> in traced calls, <span style=\"color:{}\">■</span> "
      "blocked off the CPU, <span style=\"color:{}\">■</span> runnable (waiting for a "
      "CPU)</figcaption></figure>\n",
      svg.str(), escape(run), window ? duration(*window) : "unknown length", n, kOnCpu, kInCalls,
      kBlocked, kRunnable);
}

}  // namespace jbench::html_pages
