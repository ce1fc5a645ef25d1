#include "jbench/common/run_status.h"

#include "jbench/common/word_index.h"

namespace jbench {

std::string_view run_status_name(RunStatus status) {
  return kRunStatusWords[static_cast<std::size_t>(status)];
}

std::optional<RunStatus> run_status_from_name(std::string_view name) {
  return word_enum<RunStatus>(kRunStatusWords, name);
}

}  // namespace jbench
