// Trace-event timestamps are microseconds; jbench's are integer nanoseconds. A double holds
// about 15.9 significant digits, so going through one loses nanoseconds once a run is longer
// than a few hours of CLOCK_MONOTONIC since boot. The text is made from the integer instead:
// whole microseconds, a point, and exactly three digits of nanoseconds.
//
//   append_micros(out, 3'600'000'000'123)  // "3600000000.123"
#pragma once

#include <cstdint>
#include <string>

namespace jbench::exports {

void append_micros(std::string& out, std::uint64_t ns);
std::string micros(std::uint64_t ns);

}  // namespace jbench::exports
