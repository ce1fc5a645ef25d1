#include "svg.h"

#include <fmt/format.h>

#include "html_escape.h"

namespace jbench::html_pages {

std::string coord(double v) {
  std::string s = fmt::format("{:.1f}", v);
  if (s == "-0.0") s = "0.0";  // the same picture should not differ by a sign
  return s;
}

namespace {

std::string points_attr(const std::vector<Point>& points) {
  std::string out;
  for (const Point& p : points) {
    if (!out.empty()) out += ' ';
    out += coord(p.x) + ',' + coord(p.y);
  }
  return out;
}

}  // namespace

Svg::Svg(double width, double height, std::string_view label)
    : width_(width), height_(height), label_(label) {}

void Svg::element(std::string_view tag, const std::string& geometry, Attrs attrs,
                  std::string_view title, std::string_view content) {
  body_ += '<';
  body_ += tag;
  body_ += geometry;
  for (const auto& [name, value] : attrs) {
    body_ += fmt::format(" {}=\"{}\"", name, escape(value));
  }
  if (title.empty() && content.empty()) {
    body_ += "/>";
    return;
  }
  body_ += '>';
  // A <title> child is what a browser shows on hover over the element.
  if (!title.empty()) body_ += "<title>" + escape(title) + "</title>";
  body_ += escape(content);
  body_ += fmt::format("</{}>", tag);
}

void Svg::rect(double x, double y, double w, double h, Attrs attrs, std::string_view title) {
  element("rect",
          fmt::format(" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"", coord(x), coord(y),
                      coord(w < 0 ? 0 : w), coord(h < 0 ? 0 : h)),
          attrs, title);
}

void Svg::line(double x1, double y1, double x2, double y2, Attrs attrs, std::string_view title) {
  element("line",
          fmt::format(" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"", coord(x1), coord(y1), coord(x2),
                      coord(y2)),
          attrs, title);
}

void Svg::circle(double cx, double cy, double r, Attrs attrs, std::string_view title) {
  element("circle", fmt::format(" cx=\"{}\" cy=\"{}\" r=\"{}\"", coord(cx), coord(cy), coord(r)),
          attrs, title);
}

void Svg::polygon(const std::vector<Point>& points, Attrs attrs, std::string_view title) {
  element("polygon", fmt::format(" points=\"{}\"", points_attr(points)), attrs, title);
}

void Svg::polyline(const std::vector<Point>& points, Attrs attrs) {
  element("polyline", fmt::format(" points=\"{}\" fill=\"none\"", points_attr(points)), attrs, {});
}

void Svg::text(double x, double y, std::string_view content, Attrs attrs) {
  element("text", fmt::format(" x=\"{}\" y=\"{}\"", coord(x), coord(y)), attrs, {}, content);
}

void Svg::raw(std::string_view markup) { body_ += markup; }

// No xmlns: inline SVG in HTML is in the SVG namespace without it, and the page then holds no
// URL at all (what the no-network test checks).
std::string Svg::str() const {
  return fmt::format(
      "<svg width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" role=\"img\" aria-label=\"{2}\">{3}</svg>\n",
      coord(width_), coord(height_), escape(label_), body_);
}

}  // namespace jbench::html_pages
