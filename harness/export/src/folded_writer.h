// Folded stacks of span self time (the format of flamegraph.pl's stackcollapse output, which
// speedscope also reads): one line per distinct stack, `frame;frame;... <self ns>`, the first
// frames naming the run, the incarnation and the thread, then the span names from the root to
// the leaf. Lines are sorted, so an export is reproducible byte for byte. Memory grows with the
// number of distinct stacks, not of spans.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "bundle_input.h"
#include "output_file.h"
#include "timeline.h"

namespace jbench::exports {

class FoldedWriter final : public TimelineSink {
 public:
  explicit FoldedWriter(const std::vector<const RunInput*>& runs) : runs_(runs) {}

  void span_closed(const TrackId& track, std::span<const std::string_view> frames,
                   std::uint64_t self_ns) override;
  // Writes the lines; returns how many.
  std::uint64_t write(OutputFile& out) const;

 private:
  const std::string& prefix(const TrackId& track);

  const std::vector<const RunInput*>& runs_;
  std::map<TrackId, std::string> prefixes_;
  std::map<std::string, std::uint64_t> self_ns_;  // stack -> summed self time
  std::string key_;
};

// A span name as one frame: ';' separates frames and a newline ends a line, so both become
// something else (',' and ' ').
void append_frame(std::string& out, std::string_view name);

}  // namespace jbench::exports
