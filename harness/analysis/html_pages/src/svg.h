// A tiny SVG writer: elements with attributes and an optional hover title, appended in order.
// It escapes what it is given (labels and titles come from reports) and formats coordinates
// with one decimal, so that pages stay small and the same report gives the same bytes.
//
//   Svg svg(400, 40, "cost of cell w4");
//   svg.rect(0, 0, 232, 20, {{"fill", "#4e79a7"}}, "fdatasync 58% [54–61]");
//   svg.text(4, 14, "fdatasync", {{"class", "seg"}});
//   page += svg.str();
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace jbench::html_pages {

// Extra attributes: (name, value); values are escaped, names are the code's own literals.
using Attrs = std::initializer_list<std::pair<std::string_view, std::string_view>>;

struct Point {
  double x = 0;
  double y = 0;
};

class Svg {
 public:
  // `label` is the plot's accessible name (aria-label), read by screen readers.
  Svg(double width, double height, std::string_view label);

  void rect(double x, double y, double w, double h, Attrs attrs, std::string_view title = {});
  void line(double x1, double y1, double x2, double y2, Attrs attrs, std::string_view title = {});
  void circle(double cx, double cy, double r, Attrs attrs, std::string_view title = {});
  void polygon(const std::vector<Point>& points, Attrs attrs, std::string_view title = {});
  void polyline(const std::vector<Point>& points, Attrs attrs);
  void text(double x, double y, std::string_view content, Attrs attrs);
  // Trusted markup written by the plot code itself (a <defs> block), never report text.
  void raw(std::string_view markup);

  std::string str() const;

 private:
  void element(std::string_view tag, const std::string& geometry, Attrs attrs,
               std::string_view title, std::string_view content = {});

  double width_;
  double height_;
  std::string label_;
  std::string body_;
};

// A coordinate with one decimal: what every plot writes.
std::string coord(double v);

}  // namespace jbench::html_pages
