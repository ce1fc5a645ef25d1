#include "format.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

namespace jbench::html_pages {

const nlohmann::json& field(const nlohmann::json& obj, std::string_view key) {
  static const nlohmann::json null_value;
  if (!obj.is_object()) return null_value;
  const auto it = obj.find(key);
  return it == obj.end() ? null_value : *it;
}

const nlohmann::json& array_or_empty(const nlohmann::json& value) {
  static const nlohmann::json empty = nlohmann::json::array();
  return value.is_array() ? value : empty;
}

std::optional<double> number(const nlohmann::json& value) {
  double out = 0;
  if (value.is_number()) {
    out = value.get<double>();
  } else if (value.is_string()) {
    const auto& s = value.get_ref<const std::string&>();
    const char* end = s.data() + s.size();
    const auto [ptr, ec] = std::from_chars(s.data(), end, out);
    if (ec != std::errc() || ptr != end || s.empty()) return std::nullopt;
  } else {
    return std::nullopt;
  }
  if (!std::isfinite(out)) return std::nullopt;
  return out;
}

std::string text(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number() || value.is_boolean()) return value.dump();
  return {};
}

std::string sentence(const nlohmann::json& value) {
  std::string line = text(value);
  if (line.empty()) line = text(field(value, "message"));
  if (!line.empty()) return line;
  if (value.is_null() || value == "") return "(an empty entry)";
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

namespace {

// Digits after the point for a percentage of this size: about two significant digits.
int percent_decimals(double pct) {
  const double a = std::fabs(pct);
  if (a >= 10 || a == 0) return 0;
  return a >= 1 ? 1 : 2;
}

}  // namespace

std::string percent(double fraction) {
  const double pct = fraction * 100;
  // Just under 100% keeps a decimal: 99.8% of resamples is not "100%".
  if (pct >= 99.5 && pct < 100) return fmt::format("{:.1f}%", std::min(pct, 99.9));
  return fmt::format("{:.{}f}%", pct, percent_decimals(pct));
}

std::string percent_interval(double low, double high) {
  // Both ends with the precision of the smaller one, so "[4.0–6.0]" never reads "[4.0–6]".
  const int d = std::max(percent_decimals(low * 100), percent_decimals(high * 100));
  return fmt::format("[{:.{}f}–{:.{}f}]", low * 100, d, high * 100, d);
}

std::string plain(double value) {
  const double a = std::fabs(value);
  // 999.5 and up would round to "1e+03" under three significant digits.
  if (a >= 999.5 && a < 1e15) return fmt::format("{:.0f}", value);
  return fmt::format("{:.3g}", value);
}

std::string duration(double ns) {
  // The unit is chosen on the rounded value, so 999.7 µs reads "1 ms", not "1000 µs".
  const double a = std::fabs(ns);
  if (a < 999.5) return plain(ns) + " ns";
  if (a < 999.5e3) return plain(ns / 1e3) + " µs";
  if (a < 999.5e6) return plain(ns / 1e6) + " ms";
  return plain(ns / 1e9) + " s";
}

std::string count_of(double n, std::string_view noun) {
  return fmt::format("{} {}{}", plain(n), noun, n == 1 ? "" : "s");
}

std::string ratio(double value) { return fmt::format("×{:.2f}", value); }

}  // namespace jbench::html_pages
