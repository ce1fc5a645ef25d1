// Reading what the generated bpftrace program printed (`bpftrace -f json`, one JSON object per
// line; bpftrace_script.h lists the inner lines). Pure: lines in, observations out, so it is
// tested on checked-in fixture text.
//
//   BpftraceReader reader;
//   for (line : file) reader.line(line);
//   BpftraceObservations obs = reader.finish();   // obs.calls, obs.totals, obs.lost, ...
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "observations.h"

namespace jbench::collectors::syscall_detail {

struct PhaseMarker {
  int phase = 0;
  std::uint64_t t_ns = 0;
};

struct ForkSeen {
  pid_t parent = 0;
  pid_t child = 0;
  std::uint64_t t_ns = 0;
};

struct BpftraceObservations {
  bool began = false;                // BEGIN ran
  std::vector<PhaseMarker> markers;  // the first one proves the probes were attached
  std::vector<pid_t> joined;         // processes the harness added
  std::vector<ForkSeen> forks;
  std::vector<ProcessSeen> processes;  // first traced call of each member, with its start time
  std::vector<CanaryHit> canaries;
  std::vector<CallRecord> calls;       // full
  std::map<TotalsKey, Totals> totals;  // light
  std::uint64_t lost = 0;              // events bpftrace reported lost
  std::uint64_t malformed = 0;
  std::vector<std::string> malformed_examples;  // the first few, for the failure's reason
  std::size_t largest_map = 0;  // entries of the biggest aggregate map (kMapKeysMax: full)
};

// What the live monitor needs from one line while the run goes on, without the cost of a full
// parse for the per-call lines (which it skips).
struct LiveLine {
  enum class Kind { other, marker, sync, canary, lost, process } kind = Kind::other;
  int phase = 0;     // marker
  int sync = 0;      // sync marker
  CanaryHit canary;  // canary
  std::uint64_t lost = 0;
  pid_t pid = 0;  // process (P) or fork child (F)
};
LiveLine scan_bpftrace_line(std::string_view line);

class BpftraceReader {
 public:
  void line(std::string_view text);
  // Pairs each open with its path and returns everything read.
  BpftraceObservations finish();

 private:
  void printf_line(std::string_view inner, std::string_view raw);
  void map_line(std::string_view type, std::string_view raw);
  void malformed(std::string_view raw);

  BpftraceObservations obs_;
  std::map<std::pair<pid_t, std::uint64_t>, std::string> open_paths_;  // (tid, entry t) -> path
};

}  // namespace jbench::collectors::syscall_detail
