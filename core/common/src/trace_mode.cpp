#include "jbench/common/trace_mode.h"

namespace jbench {

std::string_view trace_mode_name(TraceMode mode) {
  return kTraceValues[static_cast<std::size_t>(mode)];
}

std::optional<TraceMode> trace_mode_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kTraceValues.size(); ++i) {
    if (kTraceValues[i] == name) return static_cast<TraceMode>(i);
  }
  return std::nullopt;
}

}  // namespace jbench
