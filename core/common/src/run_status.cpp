#include "jbench/common/run_status.h"

namespace jbench {

std::string_view run_status_name(RunStatus status) {
  return kRunStatusWords[static_cast<std::size_t>(status)];
}

std::optional<RunStatus> run_status_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kRunStatusWords.size(); ++i) {
    if (kRunStatusWords[i] == name) return static_cast<RunStatus>(i);
  }
  return std::nullopt;
}

}  // namespace jbench
