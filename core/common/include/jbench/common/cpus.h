// The CPUs this process may run on: on Linux its affinity mask (what taskset, cpusets and a
// container's cpuset leave it), elsewhere the CPUs online (macOS has no affinity mask; FreeBSD's
// cpuset and illumos' processor sets are not read). The POSIX reading is built and tested on
// every system (posix::usable_cpus).
//
//   Result<unsigned> cpus = usable_cpus();   // 2 on a 2-core machine, or why not
#pragma once

#include "jbench/common/result.h"

namespace jbench {

// At least 1, or why the count cannot be read.
Result<unsigned> usable_cpus();

namespace posix {
Result<unsigned> usable_cpus();  // sysconf(_SC_NPROCESSORS_ONLN)
}  // namespace posix

}  // namespace jbench
