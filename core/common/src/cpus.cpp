#include "jbench/common/cpus.h"

#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "jbench/common/platform_choice.h"

namespace jbench {

namespace posix {
Result<unsigned> usable_cpus() {
  errno = 0;
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  if (online < 1) {
    return Error{std::string("sysconf(_SC_NPROCESSORS_ONLN): ") +
                     (errno != 0 ? std::strerror(errno) : "no answer"),
                 errno, ErrorKind::host};
  }
  return static_cast<unsigned>(online);
}
}  // namespace posix

#if JBENCH_PLATFORM_LINUX
// The affinity mask, from 1024 CPUs up: sched_getaffinity fails with EINVAL when the mask is too
// small for the kernel's.
Result<unsigned> usable_cpus() {
  for (int ncpus = 1024; ncpus <= (1 << 20); ncpus *= 2) {
    cpu_set_t* set = CPU_ALLOC(static_cast<std::size_t>(ncpus));
    if (set == nullptr) return Error{"CPU_ALLOC failed", ENOMEM, ErrorKind::host};
    const std::size_t bytes = CPU_ALLOC_SIZE(static_cast<std::size_t>(ncpus));
    CPU_ZERO_S(bytes, set);
    if (sched_getaffinity(0, bytes, set) == 0) {
      const int count = CPU_COUNT_S(bytes, set);
      CPU_FREE(set);
      return static_cast<unsigned>(count < 1 ? 1 : count);
    }
    const int err = errno;
    CPU_FREE(set);
    if (err != EINVAL) {
      return Error{std::string("sched_getaffinity: ") + std::strerror(err), err, ErrorKind::host};
    }
  }
  return Error{"sched_getaffinity: the CPU mask is larger than 2^20 CPUs", EINVAL, ErrorKind::host};
}
#else
Result<unsigned> usable_cpus() { return posix::usable_cpus(); }
#endif

}  // namespace jbench
