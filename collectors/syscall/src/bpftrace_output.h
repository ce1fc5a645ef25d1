// Reading what the generated bpftrace program printed (`bpftrace -f json`, one JSON object per
// line; bpftrace_script.h lists the inner lines). Pure: lines in, observations out, so it is
// tested on checked-in fixture text.
//
//   BpftraceReader reader;
//   for (line : file) reader.line(line);
//   ProgramObservations obs = reader.finish();   // obs.calls, obs.totals, obs.lost, ...
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "program_lines.h"

namespace jbench::collectors::syscall_detail {

LiveLine scan_bpftrace_line(std::string_view line);

class BpftraceReader {
 public:
  void line(std::string_view text);
  // Pairs each open with its path and returns everything read.
  ProgramObservations finish();

 private:
  void map_line(std::string_view type, std::string_view raw);

  ProgramLineReader lines_;
};

}  // namespace jbench::collectors::syscall_detail
