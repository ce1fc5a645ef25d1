#include "jbench/matrix/matrix.h"

namespace jbench {
namespace {
constexpr std::array<std::string_view, kAxisCount> kAxisNames = {
    "workers", "connection", "lane", "dataset", "param1", "param2", "param3", "param4", "trace"};
}

std::string_view axis_name(Axis axis) { return kAxisNames[static_cast<std::size_t>(axis)]; }

std::optional<Axis> axis_from_name(std::string_view name) {
  for (auto a : kBuiltinAxes) {
    if (kAxisNames[static_cast<std::size_t>(a)] == name) return a;
  }
  return std::nullopt;
}

std::string_view Matrix::axis_name(Axis a) const {
  return is_param_axis(a) ? std::string_view(axis(a).param) : jbench::axis_name(a);
}

std::optional<Axis> Matrix::find_axis(std::string_view axis_or_param) const {
  if (auto a = axis_from_name(axis_or_param)) return a;
  return param_axis_of(axis_or_param);
}

std::optional<Axis> Matrix::param_axis_of(std::string_view key) const {
  for (std::size_t slot = 0; slot < kParamAxisSlots; ++slot) {
    const Axis a = param_axis(slot);
    if (axis(a).declared && axis(a).param == key) return a;
  }
  return std::nullopt;
}

const char* to_string(ModeOrder order) {
  switch (order) {
    case ModeOrder::balanced:
      return "balanced";
    case ModeOrder::shuffled:
      return "shuffled";
    case ModeOrder::declared:
      return "declared";
  }
  return "balanced";
}

}  // namespace jbench
