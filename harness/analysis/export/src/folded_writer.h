// Folded stacks (the format of flamegraph.pl's stackcollapse output, which speedscope also
// reads): one line per distinct stack, `frame;frame;... <value>`, the first frames naming the
// run, the incarnation and the thread, then (samples and waits) the phase, then the span names
// from the root to the innermost. Three weights (docs/export.md):
//   - span self time: the spans' own time in ns, ending at each span;
//   - on-CPU samples: a count of the compiled tracer's samples, the spans open at the sample
//     and then the sampled user stack from its root to its leaf (and `[kernel]` when the sample
//     interrupted the kernel);
//   - off-CPU time: ns a thread was switched out (`off-cpu:blocked`, `off-cpu:runnable`) or in a
//     traced call it slept in (the call's whole time: the tracer does not split a call), the
//     spans open when it began, then the reason, then who woke it.
// Lines are sorted, so an export is reproducible byte for byte. Memory grows with the number of
// distinct stacks and with one run's span edges, samples and waits, not with the bundle's.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "bundle_input.h"
#include "output_file.h"
#include "timeline.h"

namespace jbench::exports {

enum class FoldedWeight : std::uint8_t { span_self_time, on_cpu_samples, off_cpu_time };

class FoldedWriter final : public TimelineSink {
 public:
  FoldedWriter(const std::vector<const RunInput*>& runs, FoldedWeight weight)
      : runs_(runs), weight_(weight) {}

  void begin(const TrackId& track, std::uint64_t ts_ns, SliceKind kind, std::string_view name,
             std::string_view span_id) override;
  void end(const TrackId& track, std::uint64_t ts_ns, EndNote note) override;
  void complete(const TrackId& track, const RawEvent& call) override;
  void sample(const TrackId& track, const RawEvent& sample) override;
  void span_closed(const TrackId& track, std::span<const std::string_view> frames,
                   std::uint64_t self_ns) override;
  void run_finished(std::size_t run) override;
  bool empty() const { return totals_.empty(); }
  // Writes the lines; returns how many.
  std::uint64_t write(OutputFile& out) const;

 private:
  // Where a track's innermost open slices changed: from `t_ns` on, `chain` (an index into
  // chains_) is open, root first. A track's edges come in time order (timeline.h).
  struct Edge {
    std::uint64_t t_ns = 0;
    std::uint32_t chain = 0;
  };
  struct Track {
    std::vector<std::string> open;  // the names of the open slices, root first
    std::vector<Edge> edges;
  };
  // A sample or a wait, placed once the run's slices are all known (run_finished).
  struct Pending {
    TrackId track;
    std::uint64_t t_ns = 0;
    std::uint64_t value = 0;
    std::string phase;   // "phase measure": what follows the thread
    std::string frames;  // what follows the spans: "a;b;c"
  };

  const std::string& prefix(const TrackId& track);
  void edge(Track& track, std::uint64_t ts_ns);  // the track's open slices changed at ts_ns
  std::uint32_t chain_at(const TrackId& track, std::uint64_t t_ns) const;
  std::string who(const RunInput& run, std::int64_t pid) const;
  std::string waker(const TrackId& track, const RawEvent& e) const;

  const std::vector<const RunInput*>& runs_;
  FoldedWeight weight_;
  std::map<TrackId, std::string> prefixes_;
  std::map<std::string, std::uint64_t> totals_;  // stack -> summed value
  std::string key_;
  // The current run's tracks and pending samples or waits (on-CPU and off-CPU weights).
  std::map<TrackId, Track> tracks_;
  std::vector<std::string> chains_{std::string()};  // chain 0: no slice open
  std::map<std::string, std::uint32_t> chain_ids_{{std::string(), 0}};
  std::vector<Pending> pending_;
};

// A span name as one frame: ';' separates frames and a newline ends a line, so both become
// something else (',' and ' ').
void append_frame(std::string& out, std::string_view name);

}  // namespace jbench::exports
