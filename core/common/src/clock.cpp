#include "jbench/common/clock.h"

#include <sys/resource.h>
#include <time.h>

#include <cstdlib>

namespace jbench {
namespace {

std::uint64_t timeval_ns(const timeval& tv) {
  return static_cast<std::uint64_t>(tv.tv_sec) * 1'000'000'000ULL +
         static_cast<std::uint64_t>(tv.tv_usec) * 1'000ULL;
}

}  // namespace

std::uint64_t monotonic_ns() {
  timespec ts{};
  // Cannot fail for CLOCK_MONOTONIC with a valid pointer; a failure means a broken libc.
  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) std::abort();
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ULL +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

CpuTimes process_cpu_times() {
  rusage ru{};
  if (getrusage(RUSAGE_SELF, &ru) != 0) std::abort();  // only fails for a bad `who`
  return {timeval_ns(ru.ru_utime), timeval_ns(ru.ru_stime)};
}

}  // namespace jbench
