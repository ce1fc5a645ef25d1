#include "jbench/host_caps/yama.h"

#include <fstream>

namespace jbench::host_caps {

std::optional<long> read_yama_ptrace_scope(const std::string& root) {
  std::ifstream in(root + kYamaPtraceScopeFile);
  long value = 0;
  if (in >> value) return value;
  return std::nullopt;
}

}  // namespace jbench::host_caps
