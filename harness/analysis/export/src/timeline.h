// Raw records → the events of a timeline, per track (one thread of one incarnation of one run):
// span and GC begins and ends paired on a stack per track so that they always nest, syscalls as
// complete events, phases and boundaries as instants, on-CPU samples as they are. What the writers
// (chrome_writer.h, folded_writer.h) receive is already consistent: every begin gets exactly one
// end, on its own track, never earlier than anything before it on that track.
//
// The order of a raw file across threads is not time order (docs/events.md): a span's end may
// come before its begin (it ended on another thread, drained first), or on another thread.
// Such an end is applied to the track the span began on; an end read before its begin waits
// (one entry per such span) and closes the span once the track passes that time.
#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "admission.h"
#include "raw_records.h"

namespace jbench::exports {

struct TrackId {
  std::size_t run = 0;  // index into the exported runs
  std::int64_t pid = 0;
  std::uint64_t start_time_ticks = 0;
  std::int64_t tid = 0;
  auto operator<=>(const TrackId&) const = default;
};

enum class SliceKind : std::uint8_t { span, gc };

// Why an end is not the record's own end, when it is not.
enum class EndNote : std::uint8_t {
  none,
  not_ended,        // the span never ended in the bundle: closed at the run's last timestamp
  cut,              // closed at the --max-events cut
  parent_ended,     // its parent (or an enclosing span) ended first on this thread
  ended_elsewhere,  // ended on another thread; shown on the thread it began on
};

class TimelineSink {
 public:
  virtual ~TimelineSink() = default;
  virtual void begin(const TrackId&, std::uint64_t /*ts_ns*/, SliceKind, std::string_view /*name*/,
                     std::string_view /*span_id*/) {}
  virtual void end(const TrackId&, std::uint64_t /*ts_ns*/, EndNote) {}
  virtual void complete(const TrackId&, const RawEvent& /*syscall*/) {}
  // A phase a worker marked (`track`), or a boundary of the run's (`track` unset: global).
  virtual void instant(std::size_t /*run*/, const std::optional<TrackId>& /*track*/,
                       std::uint64_t /*ts_ns*/, std::string_view /*name*/) {}
  // A span left its track's stack: its frames from root to itself on this thread (names), and
  // its self time: its duration minus its children's on the same thread, never below 0.
  virtual void span_closed(const TrackId&, std::span<const std::string_view> /*frames*/,
                           std::uint64_t /*self_ns*/) {}
  virtual void thread_seen(const TrackId&, bool /*bridge_writer*/) {}
  // A task of the run's cohort (`waker`) woke the thread of `woken` at `ts_ns`, in a call or a
  // blocked wait of it: an arrow between the two threads. Only from a builder asked to draw them.
  virtual void wakeup(const TrackId& /*waker*/, const TrackId& /*woken*/, std::uint64_t /*ts_ns*/) {
  }
  // A project's counter took `value` (jb_counter) on this thread.
  virtual void counter(const TrackId&, std::uint64_t /*ts_ns*/, std::string_view /*name*/,
                       std::int64_t /*value*/) {}
  // An on-CPU sample (`cpu_sample`). It opens no track: a sink that shows tracks sees none of
  // a thread that was only sampled.
  virtual void sample(const TrackId&, const RawEvent& /*sample*/) {}
  // The run's last record has been read and every slice closed (its last `end` sent).
  virtual void run_finished(std::size_t /*run*/) {}
};

class TimelineBuilder {
 public:
  // `wakeups`: also hand on each wake-up by a task of the cohort whose time the record gives
  // (TimelineSink::wakeup), counted as 2 events; every pass of one export must agree on it.
  TimelineBuilder(TimelineSink& sink, Admission& admission, bool wakeups)
      : sink_(sink), admission_(admission), wakeups_(wakeups) {}

  // One run at a time: start (with its cohort, which names the wakers' processes), its records
  // in file order, its boundaries, finish.
  void start_run(std::size_t run, const std::vector<Incarnation>& cohort);
  void record(const RawEvent& e);
  void boundary(std::string_view name, std::uint64_t ts_ns);
  // Closes what is still open at the run's last timestamp. Returns the spans never ended.
  std::uint64_t finish_run();

  // Whether the run so far had a span or a call: what makes a run worth exporting by default.
  bool run_had_spans_or_calls() const { return spans_or_calls_ > 0; }
  // Span ends of the finished run whose begin never came (the validator's events.unpaired).
  std::uint64_t ends_without_begin() const { return ends_without_begin_; }

 private:
  struct Open {
    std::string span_id;
    std::string parent_id;
    std::string name;
    SliceKind kind = SliceKind::span;
    std::uint64_t begin_ns = 0;
    std::uint64_t children_ns = 0;
    bool kept = false;  // admitted: its begin was written, so its end must be
    // Its end is known but lies ahead of where this track's own records are: read before its
    // begin, or from another thread. It closes once the track passes it.
    std::optional<std::uint64_t> scheduled_end;
  };
  struct Track {
    std::vector<Open> stack;
    std::uint64_t progress_ns = 0;      // the time of this track's own latest record
    std::uint64_t last_written_ns = 0;  // no end on this track may be written before it
  };

  // A new track is announced with its first record's writer flag, so that a sink naming
  // threads as they appear (chrome_writer.h, one pass) names the writer thread right.
  Track& track_of(const TrackId& id, bool bridge_writer = false);
  void push(const TrackId& id, Track& track, Open open, EventKind kind);
  void end_span(const TrackId& from, const RawEvent& e);
  void close_top(const TrackId& id, Track& track, std::uint64_t end_ns, EndNote note);
  void close_span(const TrackId& id, Track& track, std::size_t index, std::uint64_t end_ns,
                  EndNote note);
  void settle(const TrackId& id, Track& track, std::uint64_t now_ns);
  void wakeup(const TrackId& woken, const RawEvent& e);

  TimelineSink& sink_;
  Admission& admission_;
  bool wakeups_ = false;
  // The run's cohort: each pid's start time, or nullopt for a pid two incarnations shared.
  std::unordered_map<std::int64_t, std::optional<std::uint64_t>> cohort_ticks_;
  std::size_t run_ = 0;
  std::uint64_t last_ns_ = 0;  // the run's last timestamp so far (a call's end included)
  std::uint64_t spans_or_calls_ = 0;
  std::uint64_t ends_without_begin_ = 0;
  const TrackId* cached_id_ = nullptr;  // the last record's track: records come in runs of one
  Track* cached_track_ = nullptr;
  std::string key_;  // scratch for span id lookups
  std::map<TrackId, Track> tracks_;
  std::unordered_map<std::string, TrackId> open_where_;        // an open span's track, by span id
  std::unordered_map<std::string, std::uint64_t> early_ends_;  // ends read before their begin
  std::unordered_set<std::string> closed_early_;  // closed by an enclosing end; theirs is ignored
  std::vector<std::string_view> frames_;          // scratch for span_closed
};

}  // namespace jbench::exports
