// The lines a generated tracing program prints (the bpftrace program's printf records, the D
// program's output), one protocol whatever the tool: bpftrace_script.h lists them. Pure: text in,
// observations out. Each backend's reader unwraps its tool's framing and its aggregations and
// hands every program line here.
//
//   ProgramLineReader lines;
//   lines.text("M 2 123456789", raw);        // a phase marker
//   ProgramObservations obs = lines.finish(); // opens paired with their paths
#pragma once

#include <charconv>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "observations.h"

namespace jbench::collectors::syscall_detail {

struct PhaseMarker {
  int phase = 0;
  std::uint64_t t_ns = 0;
};

struct ProgramFork {
  pid_t parent = 0;
  pid_t child = 0;
  std::uint64_t t_ns = 0;
};

struct ProgramObservations {
  bool began = false;                // BEGIN ran
  std::vector<PhaseMarker> markers;  // the first one proves the probes were attached
  std::vector<pid_t> joined;         // processes the harness added
  std::vector<ProgramFork> forks;
  std::vector<ProcessSeen> processes;  // first traced call of each member, with its start time
  std::vector<CanaryHit> canaries;
  std::vector<CallRecord> calls;       // full
  std::map<TotalsKey, Totals> totals;  // light
  std::vector<CpuSample> samples;      // full, the D program: frames as DTrace wrote them
  std::uint64_t lost = 0;              // events the tool reported lost
  std::uint64_t malformed = 0;
  std::vector<std::string> malformed_examples;  // the first few, for the failure's reason
  std::size_t largest_map = 0;                  // entries of the biggest aggregate map
};

// Space-separated fields; the last one may take the rest of the line (a path with spaces).
class Fields {
 public:
  explicit Fields(std::string_view text) : rest_(text) {}
  std::optional<std::string_view> next();
  std::optional<std::string_view> rest();
  template <typename T>
  bool number(T& out) {
    auto f = next();
    if (!f || f->empty()) return false;
    const auto [end, ec] = std::from_chars(f->data(), f->data() + f->size(), out);
    return ec == std::errc() && end == f->data() + f->size();
  }
  bool at_end() const { return done_; }

 private:
  std::string_view rest_;
  bool done_ = false;
};

// "K <pid> <tid> <t> <path>" after its tag.
std::optional<CanaryHit> parse_canary(Fields& f);

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
// One program line, for the live monitor: markers, syncs, canaries, first calls; else `other`.
LiveLine scan_program_line(std::string_view line);

class ProgramLineReader {
 public:
  // One line the program printed, without its newline; `raw` is what the tool wrote around it
  // (quoted when the line is malformed).
  void text(std::string_view line, std::string_view raw);
  void malformed(std::string_view raw);
  ProgramObservations& observations() { return obs_; }
  // Pairs each open with its path (cut at `string_limit` - 1 bytes by the tool: marked truncated)
  // and returns everything read.
  ProgramObservations finish(std::size_t string_limit);

 private:
  ProgramObservations obs_;
  std::map<std::pair<pid_t, std::uint64_t>, std::string> open_paths_;  // (tid, entry t) -> path
};

}  // namespace jbench::collectors::syscall_detail
