#include "words.h"

#include <fmt/format.h>

#include <cmath>

namespace jbench::attribution {
namespace {

std::string value_of(const std::vector<std::pair<std::string, std::string>>& values,
                     std::string_view axis) {
  for (const auto& [k, v] : values) {
    if (k == axis) return v;
  }
  return "";
}

// Percent digits: whole numbers from 10% up, one decimal below.
std::string digits(double pct) {
  return std::fabs(pct) >= 10 ? fmt::format("{:.0f}", pct) : fmt::format("{:.1f}", pct);
}

}  // namespace

std::string percent(double f) { return digits(f * 100) + "%"; }

std::string share_with_interval(const Estimate& s) {
  if (!s.low || !s.high) return percent(s.value);
  return fmt::format("{}% [{}–{}]", digits(s.value * 100), digits(*s.low * 100),
                     digits(*s.high * 100));
}

std::string ratio_with_interval(double r, std::optional<double> lo, std::optional<double> hi) {
  if (!lo || !hi) return fmt::format("×{:.2f} (one pair: no interval)", r);
  return fmt::format("×{:.2f} [{:.2f}–{:.2f}]", r, *lo, *hi);
}

std::string duration(double ns) {
  if (ns >= 1e9) return fmt::format("{:.2f} s", ns / 1e9);
  if (ns >= 1e6) return fmt::format("{:.2f} ms", ns / 1e6);
  if (ns >= 1e3) return fmt::format("{:.1f} µs", ns / 1e3);
  return fmt::format("{:.0f} ns", ns);
}

std::string describe_cell(const std::vector<std::pair<std::string, std::string>>& values) {
  const std::string lane = value_of(values, "lane");
  const std::string workers = value_of(values, "workers");
  std::string s;
  if (!lane.empty()) s += lane + " lane";
  if (!workers.empty())
    s += fmt::format("{}{} worker{}", s.empty() ? "" : ", ", workers, workers == "1" ? "" : "s");
  for (const auto& [k, v] : values) {
    if (k == "lane" || k == "workers") continue;
    s += fmt::format("{}{}{}", s.empty() ? "" : ", ", k == "connection" ? "" : k + " ", v);
  }
  return s.empty() ? "the cell" : s;
}

std::string lane_word(const std::vector<std::pair<std::string, std::string>>& values) {
  const std::string lane = value_of(values, "lane");
  return lane.empty() ? "worker" : lane;
}

}  // namespace jbench::attribution
