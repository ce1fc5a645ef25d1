#include "chrome_writer.h"

#include <fmt/format.h>

#include "jbench/events/event_text.h"
#include "micros.h"

namespace jbench::exports {
namespace {

const char* note_text(EndNote note) {
  switch (note) {
    case EndNote::none:
      return nullptr;
    case EndNote::not_ended:
      return "not ended in the bundle: closed at the run's last timestamp";
    case EndNote::cut:
      return "cut by --max-events: closed at the cut";
    case EndNote::parent_ended:
      return "an enclosing span ended first: closed with it";
    case EndNote::ended_elsewhere:
      return "ended on another thread: shown on the one it began on";
  }
  return nullptr;
}

}  // namespace

void ChromeWriter::string(std::string_view text) {
  events::append_json_string(out_.buffer(), text);
}

std::string& ChromeWriter::start_event(char phase, const TrackId* track, std::uint64_t ts_ns) {
  std::string& b = out_.buffer();
  b.append(first_ ? "\n{\"ph\":\"" : ",\n{\"ph\":\"");
  first_ = false;
  b.push_back(phase);
  b.append("\",\"pid\":");
  events::append_int(b, track ? processes_.out_pid(*track) : 0);
  b.append(",\"tid\":");
  events::append_int(b, track ? track->tid : 0);
  b.append(",\"ts\":");
  append_micros(b, ts_ns - origin_);
  return b;
}

void ChromeWriter::finish_event() {
  out_.buffer().push_back('}');
  ++events_;
  out_.maybe_flush();
}

void ChromeWriter::open(const std::vector<const RunInput*>& runs) {
  runs_ = runs;
  out_.buffer().append("{\"traceEvents\":[");
  if (lazy_) return;
  // Names first, so a viewer that streams the file has them before the first event.
  std::int64_t sort_index = 0;
  for (const auto& [key, p] : processes_.processes()) {
    const TrackId process{key.run, key.who.pid, key.who.start_time_ticks, 0};
    process_names(process, p.name, sort_index++);
    for (const auto& [tid, writer] : p.threads) {
      thread_name({process.run, process.pid, process.start_time_ticks, tid}, writer);
    }
  }
}

void ChromeWriter::process_names(const TrackId& process, const std::string& name,
                                 std::int64_t sort_index) {
  std::string& b = out_.buffer();
  start_event('M', &process, origin_).append(",\"name\":\"process_name\",\"args\":{\"name\":");
  string(name);
  b.append("}}");
  start_event('M', &process, origin_)
      .append(",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":");
  events::append_int(b, sort_index);
  b.append("}}");
  names_ += 2;
}

void ChromeWriter::thread_name(const TrackId& thread, bool bridge_writer) {
  start_event('M', &thread, origin_).append(",\"name\":\"thread_name\",\"args\":{\"name\":");
  string(ProcessMap::thread_name(thread.pid, thread.tid, bridge_writer));
  out_.buffer().append("}}");
  ++names_;
}

void ChromeWriter::thread_seen(const TrackId& track, bool bridge_writer) {
  if (!lazy_ || lazy_->trip->tripped) return;
  const auto [it, inserted] = named_.try_emplace(track, bridge_writer);
  if (!inserted) {
    if (bridge_writer && !it->second) {
      lazy_->trip->trip(
          fmt::format("thread {} was named before it showed it is the writer", track.tid));
    }
    return;
  }
  const TrackId process{track.run, track.pid, track.start_time_ticks, 0};
  if (processes_.processes().count({track.run, track.pid, track.start_time_ticks}) == 0) {
    const auto rank = lazy_->plan->sort_index.find({track.run, track.pid, track.start_time_ticks});
    if (rank == lazy_->plan->sort_index.end()) {
      lazy_->trip->trip(fmt::format("pid {} is not in its run's cohort", track.pid));
      return;
    }
    process_names(process, processes_.add_named(track, *runs_.at(track.run)), rank->second);
  }
  processes_.add_thread(track, bridge_writer);
  thread_name(track, bridge_writer);
}

void ChromeWriter::close(std::string_view other_data) {
  std::string& b = out_.buffer();
  b.append("\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":");
  b.append(other_data);
  b.append("}\n");
}

void ChromeWriter::begin(const TrackId& track, std::uint64_t ts_ns, SliceKind kind,
                         std::string_view name, std::string_view span_id) {
  std::string& b = start_event('B', &track, ts_ns);
  b.append(kind == SliceKind::gc ? ",\"cat\":\"gc\",\"name\":" : ",\"cat\":\"span\",\"name\":");
  string(name);
  if (kind == SliceKind::span) {
    b.append(",\"args\":{\"span_id\":");
    string(span_id);
    b.push_back('}');
  }
  finish_event();
}

void ChromeWriter::end(const TrackId& track, std::uint64_t ts_ns, EndNote note) {
  std::string& b = start_event('E', &track, ts_ns);
  if (note == EndNote::cut) ++closed_at_cut_;
  if (const char* text = note_text(note)) {
    b.append(",\"args\":{\"end\":\"");
    b.append(text);  // fixed text: nothing to escape
    b.append("\"}");
  }
  finish_event();
}

void ChromeWriter::complete(const TrackId& track, const RawEvent& e) {
  std::string& b = start_event('X', &track, e.t_ns);
  b.append(",\"dur\":");
  append_micros(b, e.duration_ns);
  // The tracer's intervals off the CPU are the scheduler's slices, apart from the calls.
  b.append(e.name.starts_with("off-cpu:") ? ",\"cat\":\"sched\",\"name\":"
                                          : ",\"cat\":\"syscall\",\"name\":");
  string(e.name);
  b.append(",\"args\":{\"fd\":");
  if (e.fd) {
    events::append_int(b, *e.fd);
  } else {
    b.append("null");
  }
  b.append(",\"path\":");
  if (e.path) {
    string(*e.path);
  } else {
    b.append("null");
  }
  b.append(",\"request\":");
  if (e.request) {
    string(*e.request);
  } else {
    b.append("null");
  }
  b.append(",\"result\":");
  if (e.result) {
    events::append_int(b, *e.result);
  } else {
    b.append("null");
  }
  if (e.error_name) {
    b.append(",\"errno\":");
    string(*e.error_name);
  }
  if (e.woken_by) {  // who last woke the thread in the call or the wait
    b.append(",\"woken_by\":");
    string(*e.woken_by);
    if (e.waker_pid) {
      b.append(",\"waker_pid\":");
      events::append_int(b, *e.waker_pid);
    }
    if (e.waker_tid) {
      b.append(",\"waker_tid\":");
      events::append_int(b, *e.waker_tid);
    }
  }
  b.push_back('}');
  finish_event();
}

void ChromeWriter::wakeup(const TrackId& waker, const TrackId& woken, std::uint64_t ts_ns) {
  ++flows_;
  const auto marker = [&](const TrackId& on, const TrackId& other, bool out) {
    std::string& b = start_event('X', &on, ts_ns);
    b.append(",\"dur\":");
    append_micros(b, 0);
    b.append(",\"cat\":\"wakeup\",\"name\":");
    string(out ? fmt::format("wakes pid {} tid {}", other.pid, other.tid)
               : fmt::format("woken by pid {} tid {}", other.pid, other.tid));
    b.append(",\"bind_id\":");
    events::append_int(b, static_cast<std::int64_t>(flows_));
    b.append(out ? ",\"flow_out\":true" : ",\"flow_in\":true");
    finish_event();
  };
  marker(waker, woken, true);
  marker(woken, waker, false);
}

void ChromeWriter::counter(const TrackId& track, std::uint64_t ts_ns, std::string_view name,
                           std::int64_t value) {
  std::int64_t& total = counter_totals_[{processes_.out_pid(track), std::string(name)}];
  total += value;
  std::string& b = start_event('C', &track, ts_ns);
  b.append(",\"cat\":\"counter\",\"name\":");
  string(name);
  b.append(",\"args\":{");
  string(name);
  b.push_back(':');
  events::append_int(b, total);
  b.push_back('}');
  finish_event();
}

void ChromeWriter::instant(std::size_t run, const std::optional<TrackId>& track,
                           std::uint64_t ts_ns, std::string_view name) {
  std::string& b = start_event('i', track ? &*track : nullptr, ts_ns);
  if (track) {
    b.append(",\"s\":\"p\",\"cat\":\"phase\",\"name\":");
    string(name);
  } else {
    // A run's boundary is the harness's, for every incarnation of the run at once.
    b.append(",\"s\":\"g\",\"cat\":\"boundary\",\"name\":");
    string(std::string(name) + " (" + runs_.at(run)->id + ")");
  }
  finish_event();
}

}  // namespace jbench::exports
