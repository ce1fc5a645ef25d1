#include "timeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace jbench::exports {

void TimelineBuilder::start_run(std::size_t run, const std::vector<Incarnation>& cohort) {
  run_ = run;
  cohort_ticks_.clear();
  for (const Incarnation& i : cohort) {
    const auto [it, first] = cohort_ticks_.try_emplace(i.pid, i.start_time_ticks);
    if (!first) it->second.reset();  // a reused pid: which incarnation woke is not known
  }
  last_ns_ = 0;
  spans_or_calls_ = 0;
  ends_without_begin_ = 0;
  cached_id_ = nullptr;
  cached_track_ = nullptr;
}

TimelineBuilder::Track& TimelineBuilder::track_of(const TrackId& id, bool bridge_writer) {
  if (cached_id_ && *cached_id_ == id) return *cached_track_;
  auto [it, inserted] = tracks_.try_emplace(id);
  if (inserted) sink_.thread_seen(id, bridge_writer);
  cached_id_ = &it->first;  // std::map nodes do not move
  cached_track_ = &it->second;
  return it->second;
}

void TimelineBuilder::record(const RawEvent& e) {
  if (e.type == RecordType::cpu_sample) {
    sink_.sample(TrackId{run_, e.pid, e.start_time_ticks, e.tid}, e);
    return;
  }
  if (e.type == RecordType::syscall || e.type == RecordType::span_begin) ++spans_or_calls_;
  const TrackId id{run_, e.pid, e.start_time_ticks, e.tid};
  Track& track = track_of(id, e.bridge_writer);
  last_ns_ = std::max(last_ns_, e.t_ns + (e.type == RecordType::syscall ? e.duration_ns : 0));
  track.progress_ns = std::max(track.progress_ns, e.t_ns);
  settle(id, track, e.t_ns);
  switch (e.type) {
    case RecordType::syscall:
      if (e.bridge_writer) sink_.thread_seen(id, true);
      if (admission_.admit(e.t_ns, 1, EventKind::syscall)) {
        track.last_written_ns = std::max(track.last_written_ns, e.t_ns);
        sink_.complete(id, e);
      }
      if (wakeups_) wakeup(id, e);
      return;
    case RecordType::span_begin: {
      Open o;
      o.span_id = e.span_id;
      o.parent_id = e.parent_id;
      o.name = e.name;
      o.begin_ns = e.t_ns;
      if (const auto early = early_ends_.find(o.span_id); early != early_ends_.end()) {
        o.scheduled_end = early->second;
        early_ends_.erase(early);
      }
      push(id, track, std::move(o), EventKind::span);
      return;
    }
    case RecordType::gc_begin: {
      Open o;
      o.kind = SliceKind::gc;
      o.name = fmt::format("gc (generation {})", e.generation);
      o.begin_ns = e.t_ns;
      push(id, track, std::move(o), EventKind::gc);
      return;
    }
    case RecordType::span_end:
      end_span(id, e);
      return;
    case RecordType::gc_end: {
      // The innermost open pause: a collection never interleaves with another on one thread.
      for (std::size_t i = track.stack.size(); i-- > 0;) {
        if (track.stack[i].kind == SliceKind::gc) {
          close_span(id, track, i, e.t_ns, EndNote::none);
          return;
        }
      }
      return;  // a pause that began before the file did: nothing to close
    }
    case RecordType::phase:
      if (admission_.admit(e.t_ns, 1, EventKind::phase)) sink_.instant(run_, id, e.t_ns, e.name);
      return;
    case RecordType::counter:
      if (admission_.admit(e.t_ns, 1, EventKind::counter))
        sink_.counter(id, e.t_ns, e.name, e.value);
      return;
    case RecordType::cpu_sample:
      return;  // handed on above, before any track
  }
}

// A wake-up the record names with its time, by a thread of a process of the run's cohort other
// than the woken one. The harness, an interrupt, a kernel thread, or a record of an earlier
// version (no woken_ns) stay in the call's args only.
void TimelineBuilder::wakeup(const TrackId& woken, const RawEvent& e) {
  if (e.woken_by != std::string_view("task") || !e.woken_ns || !e.waker_pid || !e.waker_tid) {
    return;
  }
  const auto ticks = cohort_ticks_.find(*e.waker_pid);
  if (ticks == cohort_ticks_.end() || !ticks->second) return;
  const TrackId waker{run_, *e.waker_pid, *ticks->second, *e.waker_tid};
  if (waker == woken || !admission_.admit(*e.woken_ns, 2, EventKind::wakeup)) return;
  track_of(waker);  // a thread seen only as a waker still gets its named track
  sink_.wakeup(waker, woken, *e.woken_ns);
}

void TimelineBuilder::end_span(const TrackId& from, const RawEvent& e) {
  key_.assign(e.span_id);
  const auto where = open_where_.find(key_);
  if (where == open_where_.end()) {
    // Closed already by an enclosing span's end, or its begin is still to come (another
    // stream, written later): then it closes when that begin arrives.
    if (closed_early_.erase(key_) == 0) early_ends_[key_] = e.t_ns;
    return;
  }
  const TrackId id = where->second;
  Track& track = track_of(id);
  std::size_t i = track.stack.size();
  while (i-- > 0 && track.stack[i].span_id != key_) {
  }
  if (i >= track.stack.size()) return;  // cannot happen: open_where_ names open spans only
  if (id == from || e.t_ns <= track.progress_ns) {
    close_span(id, track, i, e.t_ns, id == from ? EndNote::none : EndNote::ended_elsewhere);
  } else {
    // Ended on another thread at a time its own thread has not reached in the file yet:
    // closing it now could put its end before records of its thread that come earlier.
    track.stack[i].scheduled_end = e.t_ns;
  }
}

void TimelineBuilder::boundary(std::string_view name, std::uint64_t ts_ns) {
  if (admission_.admit(ts_ns, 1, EventKind::boundary))
    sink_.instant(run_, std::nullopt, ts_ns, name);
}

void TimelineBuilder::push(const TrackId& id, Track& track, Open o, EventKind kind) {
  // A slice inside one that is not written is not written either, so what is written nests.
  if (track.stack.empty() || track.stack.back().kept) {
    o.kept = admission_.admit(o.begin_ns, 2, kind);
  } else {
    admission_.leave_out(2, kind);
  }
  if (o.kept) {
    sink_.begin(id, o.begin_ns, o.kind, o.name, o.span_id);
    track.last_written_ns = std::max(track.last_written_ns, o.begin_ns);
  }
  if (o.kind == SliceKind::span) open_where_[o.span_id] = id;
  track.stack.push_back(std::move(o));
}

void TimelineBuilder::close_span(const TrackId& id, Track& track, std::size_t index,
                                 std::uint64_t end_ns, EndNote note) {
  while (track.stack.size() > index + 1) {
    // Its own end, read later, is then ignored (unless it was already read).
    if (track.stack.back().kind == SliceKind::span && !track.stack.back().scheduled_end) {
      closed_early_.insert(track.stack.back().span_id);
    }
    close_top(id, track, end_ns, EndNote::parent_ended);
  }
  close_top(id, track, end_ns, note);
}

void TimelineBuilder::close_top(const TrackId& id, Track& track, std::uint64_t end_ns,
                                EndNote note) {
  Open o = std::move(track.stack.back());
  track.stack.pop_back();
  const std::uint64_t duration = std::max(end_ns, o.begin_ns) - o.begin_ns;
  if (o.kind == SliceKind::span) {
    open_where_.erase(o.span_id);
    frames_.clear();
    for (const Open& outer : track.stack) {
      if (outer.kind == SliceKind::span) frames_.push_back(outer.name);
    }
    frames_.push_back(o.name);
    sink_.span_closed(id, frames_, duration - std::min(duration, o.children_ns));
    if (!track.stack.empty() && track.stack.back().kind == SliceKind::span &&
        track.stack.back().span_id == o.parent_id) {
      track.stack.back().children_ns += duration;
    }
  }
  if (!o.kept) return;
  std::uint64_t written = std::max({end_ns, o.begin_ns, track.last_written_ns});
  if (note == EndNote::none && written != end_ns) note = EndNote::ended_elsewhere;
  if (const auto cut = admission_.cut_ns(); cut && written > *cut) {
    written = *cut;
    note = EndNote::cut;
  }
  sink_.end(id, written, note);
  track.last_written_ns = written;
}

void TimelineBuilder::settle(const TrackId& id, Track& track, std::uint64_t now_ns) {
  while (!track.stack.empty() && track.stack.back().scheduled_end &&
         *track.stack.back().scheduled_end <= now_ns) {
    close_top(id, track, *track.stack.back().scheduled_end, EndNote::ended_elsewhere);
  }
}

std::uint64_t TimelineBuilder::finish_run() {
  std::uint64_t not_ended = 0;
  for (auto& [id, track] : tracks_) {
    while (!track.stack.empty()) {
      const auto scheduled = track.stack.back().scheduled_end;
      if (scheduled) {
        close_top(id, track, *scheduled, EndNote::ended_elsewhere);
      } else {
        ++not_ended;
        close_top(id, track, last_ns_, EndNote::not_ended);
      }
    }
  }
  ends_without_begin_ = early_ends_.size();
  tracks_.clear();
  open_where_.clear();
  early_ends_.clear();
  closed_early_.clear();
  cached_id_ = nullptr;
  cached_track_ = nullptr;
  sink_.run_finished(run_);
  return not_ended;
}

}  // namespace jbench::exports
