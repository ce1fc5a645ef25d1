// The Chrome trace-event JSON writer (the JSON Object Format: traceEvents, displayTimeUnit,
// otherData) as a timeline sink: one event a line, written as it comes, timestamps as exact
// microsecond text relative to `origin_ns` (micros.h). Perfetto UI and speedscope open it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "output_file.h"
#include "process_map.h"
#include "timeline.h"

namespace jbench::exports {

class ChromeWriter final : public TimelineSink {
 public:
  ChromeWriter(OutputFile& out, const ProcessMap& processes, std::uint64_t origin_ns)
      : out_(out), processes_(processes), origin_(origin_ns) {}

  // The opening and the process and thread names (metadata events, not counted as events).
  void open(const std::vector<const RunInput*>& runs);
  // The closing, with `other_data` (a JSON object's text) as otherData.
  void close(std::string_view other_data);
  std::uint64_t events() const { return events_; }
  std::uint64_t closed_at_cut() const { return closed_at_cut_; }

  void begin(const TrackId&, std::uint64_t ts_ns, SliceKind, std::string_view name,
             std::string_view span_id) override;
  void end(const TrackId&, std::uint64_t ts_ns, EndNote) override;
  void complete(const TrackId&, const RawEvent& syscall) override;
  void instant(std::size_t run, const std::optional<TrackId>& track, std::uint64_t ts_ns,
               std::string_view name) override;

 private:
  std::string& start_event(char phase, const TrackId* track, std::uint64_t ts_ns);
  void finish_event();
  void string(std::string_view text);  // a JSON string, quoted and escaped

  OutputFile& out_;
  const ProcessMap& processes_;
  std::uint64_t origin_;
  std::uint64_t events_ = 0;
  std::uint64_t closed_at_cut_ = 0;
  bool first_ = true;
  std::string scratch_;  // NUL-terminated copy for the C escaper
  std::vector<std::string> run_ids_;
};

}  // namespace jbench::exports
