// The page's three plots, as inline SVG: the stacked cost bar of a cell, the scaling curve with
// its interval band, and the overhead forest plot. They take plain values, already read from the
// report; what the report left out arrives as nullopt and is drawn as absent, never as zero.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jbench::report_html {

struct BarSegment {
  std::string label;
  double share = 0;    // of the bar, 0..1
  std::string detail;  // after the share on hover and in the legend: "[54–61]", "no interval …"
  bool rest = false;   // the part left over by the measured ones: grey and hatched
};

// One horizontal bar, segments left to right in the given order, with a legend below. Shares
// summing past 1 are scaled to fit; negative ones are drawn as empty. `id` keeps the hatch
// pattern's id unique among the page's SVGs.
std::string stacked_bar(const std::vector<BarSegment>& segments, std::string_view label, int id);

struct CurvePoint {
  double x = 0;
  double y = 0;
  std::optional<double> low;  // the interval of y; the band is drawn where both ends are known
  std::optional<double> high;
  std::string note;  // written beside the point ("eff 89% [84–95]")
};

// y against x, y from 0, the interval band shaded behind the line.
std::string scaling_curve(std::vector<CurvePoint> points, std::string_view x_label,
                          std::string_view y_label, std::string_view label);

struct ForestRow {
  std::string label;
  std::optional<double> point;  // the median ratio; none: nothing is drawn on the row
  std::optional<double> low;    // the whisker, drawn only with both ends
  std::optional<double> high;
  std::string note;  // at the row's end: "×1.07 [1.03–1.12], 5 pairs", "no interval"
};

// One row per entry: a point and its whisker on a common ratio axis, with a line at 1.0 (the
// traced run as fast as its baseline).
std::string forest_plot(const std::vector<ForestRow>& rows, std::string_view label);

}  // namespace jbench::report_html
