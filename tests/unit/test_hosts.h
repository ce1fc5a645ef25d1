// The hosts the planner's tests plan for: a wide one (8 CPUs, 16 GiB) and a small one, like
// this project's CI machines (2 CPUs, 4 GiB).
#pragma once

#include "jbench/common/host_resources.h"

namespace jbench {

inline const HostResources kWideHost{8, 16384};
inline const HostResources kSmallHost{2, 4096};

}  // namespace jbench
