#include <fmt/format.h>

#include <algorithm>

#include "jbench/common/text.h"
#include "jbench/plan/plan.h"

namespace jbench {
namespace {

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const auto pos = s.find(sep, start);
    parts.emplace_back(s.substr(start, pos - start));
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return parts;
}

std::optional<OnlyFilter> parse_one(const std::string& arg, const Matrix& m,
                                    std::vector<std::string>& errors) {
  const auto eq = arg.find('=');
  if (eq == std::string::npos || eq == 0) {
    errors.push_back(fmt::format("--only '{}': expected AXIS=VALUE[,VALUE...]", arg));
    return std::nullopt;
  }
  const std::string name = arg.substr(0, eq);
  const auto axis = m.find_axis(name);
  if (!axis || !m.axis(*axis).declared) {
    std::vector<std::string_view> declared;
    for (auto a : kAllAxes) {
      if (m.axis(a).declared) declared.push_back(m.axis_name(a));
    }
    std::string message = fmt::format("--only '{}': '{}' is not an axis of this matrix", arg, name);
    if (auto guess = closest_match(name, declared))
      message += fmt::format(" (did you mean '{}'?)", *guess);
    message += fmt::format("; expected {}", join_alternatives(declared));
    errors.push_back(std::move(message));
    return std::nullopt;
  }
  const auto& labels = m.axis(*axis).labels;
  OnlyFilter filter{*axis, {}};
  bool ok = true;
  for (const auto& value : split(std::string_view(arg).substr(eq + 1), ',')) {
    const auto it = std::find(labels.begin(), labels.end(), value);
    if (it == labels.end()) {
      std::vector<std::string_view> known(labels.begin(), labels.end());
      errors.push_back(fmt::format("--only '{}': '{}' is not a value of the axis '{}'; expected {}",
                                   arg, value, name, join_alternatives(known)));
      ok = false;
      continue;
    }
    const auto index = static_cast<std::uint16_t>(it - labels.begin());
    if (std::find(filter.values.begin(), filter.values.end(), index) != filter.values.end()) {
      errors.push_back(fmt::format("--only '{}': '{}' is given twice", arg, value));
      ok = false;
      continue;
    }
    filter.values.push_back(index);
  }
  return ok ? std::optional(std::move(filter)) : std::nullopt;
}

}  // namespace

ParsedFilters parse_only_filters(std::span<const std::string> args, const Matrix& matrix) {
  ParsedFilters out;
  std::array<bool, kAxisCount> seen{};
  for (const auto& arg : args) {
    auto filter = parse_one(arg, matrix, out.errors);
    if (!filter) continue;
    auto& was_seen = seen[static_cast<std::size_t>(filter->axis)];
    if (was_seen) {
      out.errors.push_back(
          fmt::format("--only '{}': the axis '{}' is already filtered; give all "
                      "its values in one --only",
                      arg, matrix.axis_name(filter->axis)));
      continue;
    }
    was_seen = true;
    out.filters.push_back(std::move(*filter));
  }
  return out;
}

}  // namespace jbench
