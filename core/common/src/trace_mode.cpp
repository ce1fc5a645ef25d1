#include "jbench/common/trace_mode.h"

#include "jbench/common/word_index.h"

namespace jbench {

std::string_view trace_mode_name(TraceMode mode) {
  return kTraceValues[static_cast<std::size_t>(mode)];
}

std::optional<TraceMode> trace_mode_from_name(std::string_view name) {
  return word_enum<TraceMode>(kTraceValues, name);
}

}  // namespace jbench
