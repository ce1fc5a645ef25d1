#include "jbench/common/clock.h"

#include <sys/resource.h>
#include <time.h>

#include <cstdlib>
#include <ctime>

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

std::string utc_now(const char* format) {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  const std::size_t n = std::strftime(buf, sizeof buf, format, &tm);
  return std::string(buf, n);
}

}  // namespace jbench
