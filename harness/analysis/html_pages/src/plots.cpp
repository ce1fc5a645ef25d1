#include "plots.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "format.h"
#include "svg.h"

namespace jbench::html_pages {
namespace {

// Colour-blind-safe categorical colours; grey is kept for the rest, so no part is mistaken
// for it.
constexpr std::array<std::string_view, 8> kPalette = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                                      "#76b7b2", "#edc948", "#b07aa1", "#ff9da7"};
constexpr double kCharWidth = 6.6;  // a 12px sans-serif character, roughly: for fitting labels

std::string hatch_defs(const std::string& id) {
  return fmt::format(
      "<defs><pattern id=\"{}\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
      "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#d9d9d9\"/>"
      "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#9a9a9a\" stroke-width=\"2\"/>"
      "</pattern></defs>",
      id);
}

// The axis top: the next 1, 2, 2.5, 3, 4, 5 or 8 × 10^k at or above v, so the ticks at 0, ½ and the
// top read as round numbers.
double nice_ceiling(double v) {
  if (v <= 0) return 1;
  const double base = std::pow(10.0, std::floor(std::log10(v)));
  for (const double m : {1.0, 2.0, 2.5, 3.0, 4.0, 5.0, 8.0, 10.0}) {
    if (m * base >= v) return m * base;
  }
  return 10 * base;
}

}  // namespace

std::string stacked_bar(const std::vector<BarSegment>& segments, std::string_view label, int id) {
  constexpr double kWidth = 960, kBarHeight = 28, kLegendRow = 18;
  const double height = kBarHeight + 10 + kLegendRow * static_cast<double>(segments.size());
  Svg svg(kWidth, height, label);
  const std::string hatch_id = fmt::format("jb-hatch-{}", id);
  const std::string hatch_fill = fmt::format("url(#{})", hatch_id);
  svg.raw(hatch_defs(hatch_id));

  double total = 0;
  for (const BarSegment& s : segments) total += std::max(0.0, s.share);
  const double scale = kWidth / std::max(1.0, total);  // shares past 1 are squeezed, not cut

  double x = 0;
  std::size_t colour = 0;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const BarSegment& s = segments[i];
    const std::string fill =
        s.rest ? hatch_fill : std::string(kPalette[colour++ % kPalette.size()]);
    const std::string share_text = percent(std::max(0.0, s.share));
    const std::string hover = fmt::format("{}: {} {}", s.label, share_text, s.detail);
    const double w = std::max(0.0, s.share) * scale;
    svg.rect(x, 0, w, kBarHeight, {{"fill", fill}, {"stroke", "#fff"}, {"class", "segment"}},
             hover);
    // The label goes inside when it fits; the legend always has it.
    const std::string inside = s.label + " " + share_text;
    if (static_cast<double>(inside.size()) * kCharWidth + 8 < w) {
      svg.text(x + 4, 18, inside, {{"class", s.rest ? "seg-label rest" : "seg-label"}});
    } else if (static_cast<double>(share_text.size()) * kCharWidth + 8 < w) {
      svg.text(x + 4, 18, share_text, {{"class", s.rest ? "seg-label rest" : "seg-label"}});
    }
    const double ly = kBarHeight + 10 + kLegendRow * static_cast<double>(i);
    svg.rect(0, ly, 12, 12, {{"fill", fill}});
    svg.text(18, ly + 10, fmt::format("{} — {} {}", s.label, share_text, s.detail),
             {{"class", "legend"}});
    x += w;
  }
  return svg.str();
}

std::string scaling_curve(std::vector<CurvePoint> points, std::string_view x_label,
                          std::string_view y_label, std::string_view label) {
  constexpr double kWidth = 720, kHeight = 320;
  constexpr double kLeft = 70, kRight = 150, kTop = 20, kBottom = 50;
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  Svg svg(kWidth, kHeight, label);
  std::sort(points.begin(), points.end(),
            [](const CurvePoint& a, const CurvePoint& b) { return a.x < b.x; });

  double x_min = points.empty() ? 0 : points.front().x;
  double x_max = points.empty() ? 1 : points.back().x;
  double y_max = 0;
  for (const CurvePoint& p : points) y_max = std::max({y_max, p.y, p.high.value_or(0)});
  y_max = nice_ceiling(y_max * 1.05);  // headroom for the band and the labels
  // One worker count alone is drawn in the middle, not divided by a zero span.
  const bool one_x = x_max <= x_min;
  auto sx = [&](double v) {
    return kLeft + (one_x ? plot_w / 2 : (v - x_min) / (x_max - x_min) * plot_w);
  };
  auto sy = [&](double v) { return kTop + plot_h - v / y_max * plot_h; };

  // Axes, with a tick at every measured x and at 0, ½ and the top of y.
  svg.line(kLeft, kTop, kLeft, kTop + plot_h, {{"class", "axis"}});
  svg.line(kLeft, kTop + plot_h, kLeft + plot_w, kTop + plot_h, {{"class", "axis"}});
  for (const double v : {0.0, y_max / 2, y_max}) {
    svg.line(kLeft - 4, sy(v), kLeft, sy(v), {{"class", "axis"}});
    svg.text(kLeft - 6, sy(v) + 4, plain(v), {{"class", "tick"}, {"text-anchor", "end"}});
  }
  for (const CurvePoint& p : points) {
    svg.line(sx(p.x), kTop + plot_h, sx(p.x), kTop + plot_h + 4, {{"class", "axis"}});
    svg.text(sx(p.x), kTop + plot_h + 16, plain(p.x),
             {{"class", "tick"}, {"text-anchor", "middle"}});
  }
  svg.text(kLeft + plot_w / 2, kHeight - 10, x_label,
           {{"class", "axis-label"}, {"text-anchor", "middle"}});
  svg.text(14, kTop + plot_h / 2, y_label,
           {{"class", "axis-label"},
            {"text-anchor", "middle"},
            {"transform", fmt::format("rotate(-90 14 {})", coord(kTop + plot_h / 2))}});

  // The band: one polygon per run of consecutive points that all have both ends, upper edge
  // left to right then lower edge back; a lone point with an interval gets a whisker instead.
  std::size_t i = 0;
  while (i < points.size()) {
    if (!points[i].low || !points[i].high) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j + 1 < points.size() && points[j + 1].low && points[j + 1].high) ++j;
    if (j == i) {
      svg.line(sx(points[i].x), sy(*points[i].low), sx(points[i].x), sy(*points[i].high),
               {{"class", "whisker"}});
    } else {
      std::vector<Point> band;
      for (std::size_t k = i; k <= j; ++k) band.push_back({sx(points[k].x), sy(*points[k].high)});
      for (std::size_t k = j + 1; k-- > i;) band.push_back({sx(points[k].x), sy(*points[k].low)});
      svg.polygon(band, {{"class", "band"}}, "95% interval of the throughput");
    }
    i = j + 1;
  }

  std::vector<Point> line;
  for (const CurvePoint& p : points) line.push_back({sx(p.x), sy(p.y)});
  if (line.size() > 1) svg.polyline(line, {{"class", "curve"}});
  for (const CurvePoint& p : points) {
    std::string hover = fmt::format("{} {}: {} {}", plain(p.x), x_label, plain(p.y), y_label);
    if (p.low && p.high) hover += fmt::format(" [{}–{}]", plain(*p.low), plain(*p.high));
    svg.circle(sx(p.x), sy(p.y), 4, {{"class", "point"}}, hover);
    if (!p.note.empty()) {
      svg.text(sx(p.x) + 7, sy(p.y) - 8, p.note, {{"class", "point-note"}});
    }
  }
  return svg.str();
}

std::string forest_plot(const std::vector<ForestRow>& rows, std::string_view label,
                        std::string_view unity_title) {
  constexpr double kWidth = 1000, kLabelW = 330, kNoteW = 250, kRow = 24, kTop = 30;
  const double plot_w = kWidth - kLabelW - kNoteW;
  const double height = kTop + kRow * static_cast<double>(rows.size()) + 10;
  Svg svg(kWidth, height, label);

  // The axis spans every drawn value and 1.0, with a little room at both ends.
  double lo = 1.0, hi = 1.0;
  for (const ForestRow& r : rows) {
    for (const auto& v : {r.point, r.low, r.high}) {
      if (v) lo = std::min(lo, *v), hi = std::max(hi, *v);
    }
  }
  const double pad = std::max((hi - lo) * 0.08, 0.01);
  lo -= pad;
  hi += pad;
  auto sx = [&](double v) { return kLabelW + (v - lo) / (hi - lo) * plot_w; };

  const double bottom = kTop + kRow * static_cast<double>(rows.size());
  for (const double v : {lo + pad, 1.0, hi - pad}) {
    if (v != 1.0 && std::fabs(v - 1.0) < (hi - lo) * 0.06) continue;  // would overprint ×1.00
    svg.text(sx(v), 14, ratio(v), {{"class", "tick"}, {"text-anchor", "middle"}});
    svg.line(sx(v), 18, sx(v), kTop - 4, {{"class", "axis"}});
  }
  svg.line(sx(1.0), kTop - 4, sx(1.0), bottom, {{"class", "unity"}}, unity_title);

  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ForestRow& r = rows[i];
    const double y = kTop + kRow * static_cast<double>(i) + kRow / 2;
    svg.text(kLabelW - 8, y + 4, r.label, {{"class", "row-label"}, {"text-anchor", "end"}});
    if (r.low && r.high) {
      svg.line(sx(*r.low), y, sx(*r.high), y, {{"class", "whisker"}});
      for (const double v : {*r.low, *r.high}) {
        svg.line(sx(v), y - 5, sx(v), y + 5, {{"class", "whisker"}});
      }
    }
    if (r.point) {
      const std::string point_class = r.kind.empty() ? "point" : "point " + r.kind;
      svg.rect(sx(*r.point) - 4, y - 4, 8, 8, {{"class", point_class}}, r.label + ": " + r.note);
    }
    svg.text(kLabelW + plot_w + 10, y + 4, r.note, {{"class", "row-note"}});
  }
  return svg.str();
}

std::string series_plot(const std::vector<SeriesPoint>& points, std::size_t slots,
                        const std::vector<SeriesGap>& gaps,
                        const std::vector<SeriesMarker>& markers, std::string_view y_label,
                        std::string_view label) {
  constexpr double kWidth = 960, kHeight = 230, kLeft = 80, kRight = 20, kTop = 14, kBottom = 36;
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  Svg svg(kWidth, kHeight, label);
  for (const SeriesPoint& p : points) slots = std::max(slots, p.slot + 1);
  // One bundle alone is drawn in the middle; a slot is `step` wide, centred on its point.
  const double step = slots > 1 ? plot_w / static_cast<double>(slots - 1) : plot_w;
  auto sx = [&](double slot) { return kLeft + (slots > 1 ? slot * step : plot_w / 2); };

  // y spans the values with a little room; one value (or all equal) gets a band around it.
  double lo = 0, hi = 1;
  if (!points.empty()) {
    lo = hi = points.front().value;
    for (const SeriesPoint& p : points) lo = std::min(lo, p.value), hi = std::max(hi, p.value);
  }
  const double pad = hi > lo ? (hi - lo) * 0.08 : std::max(std::fabs(hi) * 0.05, 1.0);
  lo -= pad;
  hi += pad;
  auto sy = [&](double v) { return kTop + plot_h - (v - lo) / (hi - lo) * plot_h; };

  for (const SeriesGap& g : gaps) {
    const double x0 = std::max(kLeft, sx(static_cast<double>(g.first)) - step / 2);
    const double x1 = std::min(kLeft + plot_w, sx(static_cast<double>(g.last)) + step / 2);
    svg.rect(x0, kTop, x1 - x0, plot_h, {{"class", "gap"}}, g.title);
  }
  svg.line(kLeft, kTop, kLeft, kTop + plot_h, {{"class", "axis"}});
  svg.line(kLeft, kTop + plot_h, kLeft + plot_w, kTop + plot_h, {{"class", "axis"}});
  for (const double v : {lo + pad, (lo + hi) / 2, hi - pad}) {
    svg.line(kLeft - 4, sy(v), kLeft, sy(v), {{"class", "axis"}});
    svg.text(kLeft - 6, sy(v) + 4, plain(v), {{"class", "tick"}, {"text-anchor", "end"}});
  }
  // About eight bundle numbers along x, the first and the last always among them.
  const std::size_t every = std::max<std::size_t>(1, (slots + 7) / 8);
  auto tick = [&](std::size_t i) {
    const double x = sx(static_cast<double>(i));
    svg.line(x, kTop + plot_h, x, kTop + plot_h + 4, {{"class", "axis"}});
    svg.text(x, kTop + plot_h + 16, fmt::format("#{}", i + 1),
             {{"class", "tick"}, {"text-anchor", "middle"}});
  };
  for (std::size_t i = 0; i < slots; i += every) tick(i);
  // The last bundle is numbered too, unless that would crowd the tick before it.
  if (slots > 0 && (slots - 1) % every >= (every + 1) / 2) tick(slots - 1);
  svg.text(kLeft + plot_w / 2, kHeight - 4, "bundle, in the order they started",
           {{"class", "axis-label"}, {"text-anchor", "middle"}});
  svg.text(14, kTop + plot_h / 2, y_label,
           {{"class", "axis-label"},
            {"text-anchor", "middle"},
            {"transform", fmt::format("rotate(-90 14 {})", coord(kTop + plot_h / 2))}});

  for (const SeriesMarker& m : markers) {
    const double x = sx(static_cast<double>(m.slot)) - step / 2;
    svg.line(x, kTop, x, kTop + plot_h, {{"class", m.worse ? "change worse" : "change"}}, m.title);
  }

  std::vector<const SeriesPoint*> sorted;
  for (const SeriesPoint& p : points) sorted.push_back(&p);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const SeriesPoint* a, const SeriesPoint* b) { return a->slot < b->slot; });
  // The line: one polyline per run of points in adjacent slots.
  std::vector<Point> run;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    run.push_back({sx(static_cast<double>(sorted[i]->slot)), sy(sorted[i]->value)});
    const bool breaks = i + 1 == sorted.size() || sorted[i + 1]->slot != sorted[i]->slot + 1;
    if (!breaks) continue;
    if (run.size() > 1) svg.polyline(run, {{"class", "curve"}});
    run.clear();
  }
  // The points share their class through a group: one per value, so every byte counts.
  svg.raw("<g class=\"point\">");
  for (const SeriesPoint* p : sorted) {
    svg.circle(sx(static_cast<double>(p->slot)), sy(p->value), 2.5, {}, p->title);
  }
  svg.raw("</g>");
  return svg.str();
}

}  // namespace jbench::html_pages
