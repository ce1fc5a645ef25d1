// The Chrome trace-event JSON writer (the JSON Object Format: traceEvents, displayTimeUnit,
// otherData) as a timeline sink: one event a line, written as it comes, timestamps as exact
// microsecond text relative to `origin_ns` (micros.h). Perfetto UI and speedscope open it.
// Process and thread names come first (two passes), or, in one pass, each just before its
// track's first event: the format allows metadata events anywhere in traceEvents.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "one_pass.h"
#include "output_file.h"
#include "process_map.h"
#include "timeline.h"

namespace jbench::exports {

// One pass: names written as tracks appear; an incarnation outside the plan's cohorts, or a
// writer thread first seen as another, trips the pass (its names would be wrong).
struct LazyNames {
  const OnePassPlan* plan = nullptr;
  OnePassTrip* trip = nullptr;
};

class ChromeWriter final : public TimelineSink {
 public:
  // `processes`: assigned (two passes), or filled as tracks appear when `lazy` is given.
  ChromeWriter(OutputFile& out, ProcessMap& processes, std::uint64_t origin_ns,
               std::optional<LazyNames> lazy = std::nullopt)
      : out_(out), processes_(processes), origin_(origin_ns), lazy_(lazy) {}

  // The opening and, with two passes, the process and thread names (metadata events, not
  // counted as events).
  void open(const std::vector<const RunInput*>& runs);
  // The closing, with `other_data` (a JSON object's text) as otherData.
  void close(std::string_view other_data);
  std::uint64_t events() const { return events_; }
  std::uint64_t closed_at_cut() const { return closed_at_cut_; }
  std::uint64_t names() const { return names_; }  // metadata events written

  void begin(const TrackId&, std::uint64_t ts_ns, SliceKind, std::string_view name,
             std::string_view span_id) override;
  void end(const TrackId&, std::uint64_t ts_ns, EndNote) override;
  void complete(const TrackId&, const RawEvent& syscall) override;
  // A counter track per process and name: the running sum of its values, as `jbench compare`
  // adds them up (docs/compare.md, "The project's counters").
  void counter(const TrackId& track, std::uint64_t ts_ns, std::string_view name,
               std::int64_t value) override;
  void instant(std::size_t run, const std::optional<TrackId>& track, std::uint64_t ts_ns,
               std::string_view name) override;
  void thread_seen(const TrackId& track, bool bridge_writer) override;
  // Two zero-length slices at the wake-up, "wakes" on the waker's thread and "woken" on the
  // woken one, bound by a flow (Perfetto's v2 flows: bind_id, flow_out, flow_in), the waker's
  // written first: Perfetto takes events of one timestamp in file order.
  void wakeup(const TrackId& waker, const TrackId& woken, std::uint64_t ts_ns) override;

 private:
  void process_names(const TrackId& process, const std::string& name, std::int64_t sort_index);
  void thread_name(const TrackId& thread, bool bridge_writer);
  std::string& start_event(char phase, const TrackId* track, std::uint64_t ts_ns);
  void finish_event();
  void string(std::string_view text);  // a JSON string, quoted and escaped

  OutputFile& out_;
  ProcessMap& processes_;
  std::uint64_t origin_;
  std::optional<LazyNames> lazy_;
  std::map<TrackId, bool> named_;  // one pass: threads named, and whether as the writer
  std::uint64_t events_ = 0;
  std::uint64_t closed_at_cut_ = 0;
  std::uint64_t names_ = 0;
  std::uint64_t flows_ = 0;  // wake-ups drawn: each flow's bind_id is its number
  bool first_ = true;
  std::vector<const RunInput*> runs_;
  std::map<std::pair<std::int64_t, std::string>, std::int64_t> counter_totals_;  // (pid, name)
};

}  // namespace jbench::exports
