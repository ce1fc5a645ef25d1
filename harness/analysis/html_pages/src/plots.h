// The pages' plots, as inline SVG: the stacked cost bar of a cell, the scaling curve with its
// interval band, the forest plot of ratios (the overhead, a comparison), and a series across
// bundles (a history). They take plain values, already read from the report; what the report
// left out arrives as nullopt and is drawn as absent, never as zero.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jbench::html_pages {

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
  std::string kind;  // an extra class on the point ("regressed"), so a verdict shows in colour
};

// One row per entry: a point and its whisker on a common ratio axis, with a dashed line at 1.0
// whose hover text says what 1.0 means here (`unity_title`: "×1.00: candidate as the base").
std::string forest_plot(const std::vector<ForestRow>& rows, std::string_view label,
                        std::string_view unity_title);

struct SeriesPoint {
  std::size_t slot = 0;  // the bundle's index: the x position
  double value = 0;
  std::string title;  // on hover
};

struct SeriesMarker {
  std::size_t slot = 0;  // the first bundle after the change: the line is drawn just before it
  std::string title;
  bool worse = false;  // highlighted
};

struct SeriesGap {
  std::size_t first = 0, last = 0;  // a run of bundles with no point, drawn as one stripe
  std::string title;
};

// One value per bundle against the bundle's index (0 … slots-1). The line joins only points in
// adjacent slots: a bundle with no point breaks it, and each run of such bundles is a shaded
// stripe (`gaps`, titled by the caller). Change points are vertical markers.
std::string series_plot(const std::vector<SeriesPoint>& points, std::size_t slots,
                        const std::vector<SeriesGap>& gaps,
                        const std::vector<SeriesMarker>& markers, std::string_view y_label,
                        std::string_view label);

}  // namespace jbench::html_pages
