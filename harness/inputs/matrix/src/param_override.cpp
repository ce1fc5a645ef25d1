#include "jbench/matrix/param_override.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <charconv>
#include <cmath>

#include "jbench/common/file_name.h"
#include "jbench/matrix/worker_declaration.h"

namespace jbench {

Result<ParamValue> param_value_from_text(const ParamSpec& spec, std::string_view text) {
  const auto refused = [](std::string why) { return Error{std::move(why), 0, ErrorKind::input}; };
  const auto* end = text.data() + text.size();
  switch (spec.type) {
    case ParamSpec::Type::integer: {
      std::int64_t v = 0;
      const auto [ptr, ec] = std::from_chars(text.data(), end, v);
      const auto as_double = static_cast<double>(v);
      if (ec != std::errc{} || ptr != end || as_double < spec.min || as_double > spec.max) {
        return refused(
            fmt::format("expected a whole number in {}..{}, got '{}'", spec.min, spec.max, text));
      }
      return ParamValue{v};
    }
    case ParamSpec::Type::number: {
      double v = 0;
      const auto [ptr, ec] = std::from_chars(text.data(), end, v);
      if (ec != std::errc{} || ptr != end || !std::isfinite(v) || v < spec.min || v > spec.max) {
        return refused(
            fmt::format("expected a number in {}..{}, got '{}'", spec.min, spec.max, text));
      }
      return ParamValue{v};
    }
    case ParamSpec::Type::choice:
      for (auto c : spec.choices) {
        if (c == text) return ParamValue{std::string(text)};
      }
      return refused(fmt::format("unknown value '{}'; expected one of {}", text,
                                 fmt::join(spec.choices, ", ")));
    case ParamSpec::Type::file_name:
      if (const Status plain = check_plain_file_name(text); !plain) {
        return refused(fmt::format("not a plain file name: {}", plain.error().message));
      }
      return ParamValue{std::string(text)};
  }
  return refused("an unknown parameter type");
}

std::string param_value_text(const ParamValue& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return "none";
        } else if constexpr (std::is_same_v<T, std::string>) {
          return x;
        } else {
          return fmt::format("{}", x);
        }
      },
      v);
}

Status override_param(Matrix& m, std::string_view key, std::string_view text, std::string by) {
  const WorkloadKind* kind = workload_kind_of(m.workload);
  const ParamSpec* spec = kind ? find_param(*kind, key) : nullptr;
  Param* param = nullptr;
  for (auto& p : m.workload.params) {
    if (p.key == key) param = &p;
  }
  if (m.param_axis_of(key)) {
    return Error{
        fmt::format("'{}' is an axis of this matrix: choose among its values with --only {}=V", key,
                    key),
        0, ErrorKind::input};
  }
  if (!spec || !param) {
    return Error{fmt::format("'{}' is not a parameter of the {} workload", key, m.workload.kind), 0,
                 ErrorKind::input};
  }
  auto value = param_value_from_text(*spec, text);
  if (!value) return value.error().within(fmt::format("{}{}", kParamOverridePrefix, key));
  m.overrides.push_back({fmt::format("{}{}", kParamOverridePrefix, key),
                         param_value_text(param->value), param_value_text(*value), std::move(by)});
  param->value = std::move(*value);
  param->defaulted = false;
  return {};
}

Status apply_recorded_overrides(const std::vector<MatrixOverride>& overrides, Matrix& m) {
  for (const MatrixOverride& o : overrides) {
    const std::string& key = o.key;
    const bool repetitions = key == "repetitions";
    if (!repetitions && !key.starts_with(kParamOverridePrefix)) continue;
    const std::string& value = o.value;
    if (repetitions) {
      std::uint32_t n = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (ec != std::errc() || end != value.data() + value.size() || n == 0) {
        return Error{
            fmt::format("manifest.json's override of repetitions is not a count: '{}'", value), 0,
            ErrorKind::input};
      }
      m.repetitions = n;
      continue;
    }
    const Status applied = override_param(m, key.substr(kParamOverridePrefix.size()), value, o.by);
    if (!applied) {
      return applied.error().within(
          fmt::format("manifest.json's override of {} cannot be applied", key));
    }
  }
  return {};
}

}  // namespace jbench
