#include "jbench/matrix/matrix.h"

namespace jbench {
namespace {
constexpr std::array<std::string_view, kAxisCount> kAxisNames = {"workers", "connection", "lane",
                                                                 "dataset", "trace"};
}

std::string_view axis_name(Axis axis) { return kAxisNames[static_cast<std::size_t>(axis)]; }

std::optional<Axis> axis_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kAxisCount; ++i) {
    if (kAxisNames[i] == name) return static_cast<Axis>(i);
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
