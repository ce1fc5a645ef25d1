#include "folded_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

namespace jbench::exports {
namespace {

constexpr std::string_view kOffCpuPrefix = "off-cpu:";

// The phase a sample or a wait began in, as a frame: a flame graph can then be zoomed to the
// measure phase, which is what a cell's figures cover.
std::string phase_frame(const RawEvent& e) {
  std::string out = "phase ";
  append_frame(out, e.phase.value_or("unknown"));
  return out;
}

// The frames of a wait: its reason, then who woke the thread (docs/export.md).
std::string wait_reason(const RawEvent& e) {
  std::string out;
  if (e.name == "off-cpu:runnable") return "runnable (waiting for a CPU)";
  if (e.name == "off-cpu:blocked") {
    // The system call it blocked in, or "outside a system call" (a page fault, a kernel wait).
    const std::string_view request = e.request.value_or("outside a system call");
    out = request.starts_with("outside") ? "blocked " : "blocked in ";
    append_frame(out, request);
    return out;
  }
  append_frame(out, e.name);
  if (e.path && !e.path->empty()) {
    // The file's name, as the report says it: the directory is the run's scratch (or the
    // host's), the same for every call of a run.
    out += " on ";
    append_frame(out, std::filesystem::path(*e.path).filename().string());
  }
  return out;
}

}  // namespace

void append_frame(std::string& out, std::string_view name) {
  for (const char c : name) {
    out.push_back(c == ';' ? ',' : (c == '\n' || c == '\r') ? ' ' : c);
  }
}

std::string FoldedWriter::who(const RunInput& run, std::int64_t pid) const {
  for (const Incarnation& inc : run.cohort) {
    if (inc.pid != pid) continue;
    return inc.worker ? fmt::format("worker {} pid {}", *inc.worker, pid)
                      : fmt::format("forked pid {}", pid);
  }
  return fmt::format("process pid {}", pid);
}

const std::string& FoldedWriter::prefix(const TrackId& track) {
  auto [it, inserted] = prefixes_.try_emplace(track);
  if (inserted) {
    const RunInput& run = *runs_.at(track.run);
    std::string name = fmt::format("process pid {}", track.pid);
    for (const Incarnation& inc : run.cohort) {
      if (inc.pid == track.pid && inc.start_time_ticks == track.start_time_ticks) {
        name = who(run, track.pid);
      }
    }
    append_frame(it->second, run.id);
    it->second += ';';
    append_frame(it->second, name);
    it->second += fmt::format(";tid {}", track.tid);
  }
  return it->second;
}

// Who woke the thread, in the run's words: the same process, a worker, the harness that
// started the workers, a process outside the run, an interrupt or a kernel thread.
std::string FoldedWriter::waker(const TrackId& track, const RawEvent& e) const {
  if (!e.woken_by) return {};
  if (*e.woken_by == "interrupt") return "woken by an interrupt";
  const std::int64_t pid = e.waker_pid.value_or(0);
  if (*e.woken_by == "kernel_thread") return fmt::format("woken by a kernel thread pid {}", pid);
  if (pid == track.pid) {
    return e.waker_tid == track.tid
               ? "woken by itself"
               : fmt::format("woken by its own tid {}", e.waker_tid.value_or(0));
  }
  const RunInput& run = *runs_.at(track.run);
  for (const Incarnation& inc : run.cohort) {
    if (inc.pid == pid) return "woken by " + who(run, pid);
  }
  for (const Incarnation& inc : run.cohort) {
    if (inc.pid == track.pid && inc.ppid != 0 && inc.ppid == pid) {
      return fmt::format("woken by the harness pid {}", pid);
    }
  }
  return fmt::format("woken by pid {} outside the run", pid);
}

void FoldedWriter::edge(Track& t, std::uint64_t ts_ns) {
  std::string chain;
  for (const std::string& name : t.open) {
    if (!chain.empty()) chain += ';';
    append_frame(chain, name);
  }
  auto [it, fresh] = chain_ids_.try_emplace(chain, static_cast<std::uint32_t>(chains_.size()));
  if (fresh) chains_.push_back(chain);
  if (!t.edges.empty() && t.edges.back().t_ns == ts_ns) {
    t.edges.back().chain = it->second;  // two edges at one instant: the later holds from then
  } else {
    t.edges.push_back({ts_ns, it->second});
  }
}

void FoldedWriter::begin(const TrackId& track, std::uint64_t ts_ns, SliceKind,
                         std::string_view name, std::string_view) {
  if (weight_ == FoldedWeight::span_self_time) return;
  Track& t = tracks_[track];
  t.open.emplace_back(name);
  edge(t, ts_ns);
}

void FoldedWriter::end(const TrackId& track, std::uint64_t ts_ns, EndNote) {
  if (weight_ == FoldedWeight::span_self_time) return;
  Track& t = tracks_[track];
  if (!t.open.empty()) t.open.pop_back();
  edge(t, ts_ns);
}

void FoldedWriter::complete(const TrackId& track, const RawEvent& call) {
  if (weight_ != FoldedWeight::off_cpu_time) return;
  const bool off_cpu = call.name.starts_with(kOffCpuPrefix);
  if (!off_cpu && !call.woken_by) return;  // a call that never slept was on a CPU throughout
  std::string frames = wait_reason(call);
  if (const std::string w = waker(track, call); !w.empty()) {
    frames += ';' + w;
  } else if (call.name != "off-cpu:runnable") {
    frames += ";waker not seen";  // the wake-up fell outside the tracer's view (a phase's edge)
  }
  pending_.push_back({track, call.t_ns, call.duration_ns, phase_frame(call), std::move(frames)});
}

void FoldedWriter::sample(const TrackId& track, const RawEvent& s) {
  if (weight_ != FoldedWeight::on_cpu_samples) return;
  std::string frames;
  if (s.stack) {
    // Already folded root first: its ';' stay the frames' separators.
    for (const char c : *s.stack) frames.push_back(c == '\n' || c == '\r' ? ' ' : c);
  } else {
    frames = "[no user stack: ";
    append_frame(frames, s.stack_error.value_or("unknown"));
    frames += ']';
  }
  if (s.in_kernel) frames += ";[kernel]";
  pending_.push_back({track, s.t_ns, 1, phase_frame(s), std::move(frames)});
}

std::uint32_t FoldedWriter::chain_at(const TrackId& track, std::uint64_t t_ns) const {
  const auto it = tracks_.find(track);
  if (it == tracks_.end()) return 0;
  const auto& edges = it->second.edges;
  const auto after = std::upper_bound(edges.begin(), edges.end(), t_ns,
                                      [](std::uint64_t t, const Edge& e) { return t < e.t_ns; });
  return after == edges.begin() ? 0 : std::prev(after)->chain;
}

void FoldedWriter::run_finished(std::size_t) {
  for (const Pending& p : pending_) {
    key_ = prefix(p.track);
    key_ += ';' + p.phase;
    const std::string& chain = chains_[chain_at(p.track, p.t_ns)];
    if (!chain.empty()) key_ += ';' + chain;
    key_ += ';' + p.frames;
    totals_[key_] += p.value;
  }
  pending_.clear();
  tracks_.clear();
}

void FoldedWriter::span_closed(const TrackId& track, std::span<const std::string_view> frames,
                               std::uint64_t self_ns) {
  if (weight_ != FoldedWeight::span_self_time) return;
  key_ = prefix(track);
  for (const auto frame : frames) {
    key_ += ';';
    append_frame(key_, frame);
  }
  totals_[key_] += self_ns;
}

std::uint64_t FoldedWriter::write(OutputFile& out) const {
  for (const auto& [stack, value] : totals_) {
    std::string& b = out.buffer();
    b += stack;
    b += ' ';
    b += std::to_string(value);
    b += '\n';
    out.maybe_flush();
  }
  return totals_.size();
}

}  // namespace jbench::exports
