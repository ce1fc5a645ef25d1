// What the host offers a plan: the cores this process may run on and its memory.
// The plan reads it as an input (so it stays a pure function); jbench::host probes it.
#pragma once

#include <cstdint>

namespace jbench {

struct HostResources {
  std::uint32_t cores = 1;
  std::uint64_t memory_mib = 0;
};

}  // namespace jbench
