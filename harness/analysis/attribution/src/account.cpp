#include "jbench/attribution/account.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "jbench/common/random.h"
#include "span_segments.h"

namespace jbench::attribution {
namespace {

std::uint64_t overlap(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t d) {
  const std::uint64_t lo = std::max(a, c);
  const std::uint64_t hi = std::min(b, d);
  return hi > lo ? hi - lo : 0;
}

// The file's last path component: what a person recognises ("db.sqlite-wal").
std::string_view base_name(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::optional<Phase> phase_named(std::string_view name) {
  for (std::size_t i = 0; i < kPhases; ++i) {
    if (name == collectors::kPhases[i]) return static_cast<Phase>(i);
  }
  return std::nullopt;
}

std::uint64_t PhaseWindows::wall(Phase p) const {
  const auto i = static_cast<std::size_t>(p);
  return end[i] > begin[i] ? end[i] - begin[i] : 0;
}

std::string CallKey::label() const {
  // The compiled tracer's intervals off the CPU are accounted as calls; they read as what they are.
  // A blocked wait names the untraced call it blocked in (light: the calls, one total).
  if (call == kOffCpuBlocked) {
    return request.empty() ? "blocked waits off the CPU (outside traced calls)"
           : request == "outside a system call"
               ? "blocked off the CPU outside a system call (page fault, kernel wait)"
               : fmt::format("blocked in {} (off the CPU)", request);
  }
  if (call == kOffCpuRunnable) return "runnable waits for a CPU (outside traced calls)";
  std::string out = call;
  if (!request.empty()) out += " " + request;
  if (!path.empty()) out += fmt::format(" on {}", base_name(path));
  return out;
}

void CallCost::add(std::uint64_t part_ns, std::uint64_t calls, std::uint64_t longest) {
  ns += part_ns;
  count += calls;
  max_ns = std::max(max_ns, longest);
}

std::uint64_t PhaseAccount::syscall_ns() const {
  std::uint64_t sum = 0;
  for (const auto& [key, cost] : calls) sum += cost.ns;
  return sum;
}

std::uint64_t PhaseAccount::in_span_ns() const {
  std::uint64_t sum = 0;
  for (const auto& [name, ns] : in_span) sum += ns;
  return sum;
}

std::uint64_t PhaseAccount::rest_ns() const {
  const std::uint64_t used = syscall_ns() + gc_ns + in_span_ns();
  return thread_ns() > used ? thread_ns() - used : 0;
}

AccountBuilder::AccountBuilder(RunAccount run, std::vector<PhaseWindows> windows)
    : run_(std::move(run)), windows_(std::move(windows)) {
  windows_.resize(run_.incarnations.size(), windows_.empty() ? PhaseWindows{} : windows_.front());
  for (std::size_t i = 0; i < run_.incarnations.size(); ++i) {
    Incarnation& inc = run_.incarnations[i];
    index_[{inc.pid, inc.start_time_ticks}] = i;
    segments_.try_emplace({inc.pid, inc.start_time_ticks});
    for (std::size_t p = 0; p < kPhases; ++p) {
      inc.phases[p].wall_ns = windows_[i].wall(static_cast<Phase>(p));
    }
  }
}

AccountBuilder::~AccountBuilder() = default;
AccountBuilder::AccountBuilder(AccountBuilder&&) noexcept = default;

Incarnation* AccountBuilder::find(IncarnationId who) {
  const auto it = index_.find(who);
  if (it == index_.end()) {
    ++outside_cohort_;  // not a registered incarnation of this run: never counted
    return nullptr;
  }
  return &run_.incarnations[it->second];
}

void AccountBuilder::add_span_begin(IncarnationId who, std::int64_t tid, std::string_view id,
                                    std::string_view name, std::uint64_t t_ns) {
  if (!find(who)) return;
  segments_[who].begin(tid, id, name, t_ns);
  workload_threads_.insert({who, tid});
}

void AccountBuilder::add_span_end(IncarnationId who, std::int64_t tid, std::string_view id,
                                  std::uint64_t t_ns) {
  if (!find(who)) return;
  segments_[who].end(tid, id, t_ns);
}

void AccountBuilder::add_gc(IncarnationId who, std::int64_t tid, bool begin, std::uint64_t t_ns) {
  if (!find(who)) return;
  segments_[who].gc(tid, begin, t_ns);
}

void AccountBuilder::seal_spans() {
  for (auto& [who, segs] : segments_) {
    Incarnation* inc = find(who);
    if (!inc) continue;
    const PhaseWindows& w = windows_[index_.at(who)];
    const std::uint64_t last = w.end[kPhases - 1];
    if (const std::uint64_t closed = segs.seal(last)) {
      run_.notes.push_back(fmt::format(
          "worker {} (pid {}): {} spans or GC pauses never ended in the bundle; each is counted "
          "until the end of the run",
          inc->worker, inc->pid, closed));
    }
    const auto& names = segs.names();
    for (const std::int64_t tid : segs.threads()) {
      for (const auto& s : segs.spans(tid)) {
        for (std::size_t p = 0; p < kPhases; ++p) {
          SpanCost& cost = inc->phases[p].spans[names[s.name]];
          cost.total_ns += overlap(s.begin, s.end, w.begin[p], w.end[p]);
          if (s.begin >= w.begin[p] && s.begin < w.end[p]) ++cost.count;
        }
      }
      for (const auto& g : segs.segments(tid)) {
        const std::string& name = names[segs.spans(tid)[g.span].name];
        for (std::size_t p = 0; p < kPhases; ++p) {
          inc->phases[p].spans[name].self_ns += overlap(g.begin, g.end, w.begin[p], w.end[p]);
        }
      }
      for (const auto& pause : segs.pauses(tid)) {
        const auto* span = segs.innermost(tid, pause.begin);
        for (std::size_t p = 0; p < kPhases; ++p) {
          const std::uint64_t ns = overlap(pause.begin, pause.end, w.begin[p], w.end[p]);
          PhaseAccount& phase = inc->phases[p];
          phase.gc_ns += ns;
          if (pause.begin >= w.begin[p] && pause.begin < w.end[p]) ++phase.gc_pauses;
          if (span && ns) phase.spans[names[span->name]].gc_ns += ns;
        }
      }
    }
    // Span names with nothing in a phase are not that phase's.
    for (auto& phase : inc->phases) {
      std::erase_if(phase.spans,
                    [](const auto& kv) { return kv.second.count == 0 && kv.second.total_ns == 0; });
    }
  }
}

void TimelineBins::add(std::vector<std::uint64_t>& bins, std::uint64_t from,
                       std::uint64_t to) const {
  if (end_ns <= begin_ns) return;
  from = std::max(from, begin_ns);
  to = std::min(to, end_ns);
  // Bin i is [begin + span·i/n, begin + span·(i+1)/n): the window split as evenly as integers
  // allow. span·n fits 64 bits for any window under a thousand days.
  const std::uint64_t span = end_ns - begin_ns;
  while (from < to) {
    const std::uint64_t i = (from - begin_ns) * kTimelineBins / span;
    const std::uint64_t bin_end = begin_ns + span * (i + 1) / kTimelineBins;
    const std::uint64_t upto = std::min(to, std::max(bin_end, from + 1));
    bins[std::min<std::uint64_t>(i, kTimelineBins - 1)] += upto - from;
    from = upto;
  }
}

void AccountBuilder::add_call(const CallRecord& c) {
  Incarnation* inc = find(c.who);
  if (!inc) return;
  const SpanSegments& segs = segments_[c.who];
  const std::uint64_t end = c.t_ns + c.duration_ns;
  const auto* pause = c.bridge_writer ? nullptr : segs.pause_at(c.tid, c.t_ns);
  const auto* span = c.bridge_writer || pause ? nullptr : segs.innermost(c.tid, c.t_ns);
  if (!c.bridge_writer) workload_threads_.insert({c.who, c.tid});
  const std::size_t incarnation = index_.at(c.who);
  const PhaseWindows& w = windows_[incarnation];
  for (std::size_t p = 0; p < kPhases; ++p) {
    const std::uint64_t b = w.begin[p];
    const std::uint64_t e = w.end[p];
    const bool entered_here = c.t_ns >= b && c.t_ns < e;
    // A call split at a boundary counts once, in the phase it entered, and its time where it was.
    const std::uint64_t ns = c.duration_ns == 0 ? 0 : overlap(c.t_ns, end, b, e);
    if (!entered_here && ns == 0) continue;
    PhaseAccount& phase = inc->phases[p];
    if (c.bridge_writer) {
      phase.writer_calls.add(ns, entered_here ? 1 : 0, c.duration_ns);
      continue;
    }
    cost_of(phase, incarnation, p, c).add(ns, entered_here ? 1 : 0, c.duration_ns);
    if (p == static_cast<std::size_t>(Phase::measure) && ns) {
      if (!phase.timeline) phase.timeline = TimelineBins{b, e};
      TimelineBins& t = *phase.timeline;
      t.add(c.call == kOffCpuBlocked    ? t.blocked
            : c.call == kOffCpuRunnable ? t.runnable
                                        : t.in_calls,
            c.t_ns, end);
    }
    if (!c.woken_by.empty() && ns) {
      phase
          .woken[{CallKey{std::string(c.call), std::string(c.path), std::string(c.request)}.label(),
                  waker_words(*inc, c)}] += ns;
    }
    if (pause) {
      gc_calls_ns_[{c.who, p}] +=
          overlap(c.t_ns, end, std::max(b, pause->begin), std::min(e, pause->end));
    } else if (span && ns) {
      phase.spans[segs.names()[span->name]].syscall_ns += ns;
    }
  }
  if (c.t_ns >= w.begin[0] && c.t_ns < w.end[0]) {
    std::string belongs = c.bridge_writer ? "bridge writer thread (observer)"
                          : pause         ? "workload: in a GC pause"
                          : span          ? "workload: in span " + segs.names()[span->name]
                                          : "workload: outside any span";
    auto& calls = inc->startup_calls;
    if (!calls.empty() && calls.back().call == c.call && calls.back().fd == c.fd &&
        calls.back().path == c.path && calls.back().request == c.request &&
        calls.back().belongs_to == belongs) {
      ++calls.back().count;
      calls.back().duration_ns += c.duration_ns;
    } else if (calls.size() < kMaxStartupCalls) {
      calls.push_back({c.t_ns, std::string(c.call), c.fd, std::string(c.path),
                       std::string(c.request), c.duration_ns, 1, std::move(belongs)});
    } else {
      ++inc->startup_calls_cut;
    }
  }
}

// Who woke a thread, in the words of the run: another worker by its index, the harness, the
// thread's own process, a process outside the run by its pid, an interrupt, a kernel thread.
std::string AccountBuilder::waker_words(const Incarnation& waiter, const CallRecord& c) const {
  if (c.woken_by == "interrupt") return "an interrupt (a device, a timer, a softirq)";
  if (c.woken_by == "kernel_thread") return "a kernel thread";
  if (c.waker_pid == waiter.pid) {
    return c.waker_tid == c.tid ? "itself" : "another thread of its process";
  }
  for (const Incarnation& other : run_.incarnations) {
    if (other.pid == c.waker_pid) return fmt::format("worker {}", other.worker);
  }
  if (waiter.parent_pid != 0 && c.waker_pid == waiter.parent_pid) return "the harness (jbench)";
  return fmt::format("a process outside the run (pid {})", c.waker_pid);
}

CallCost& AccountBuilder::cost_of(PhaseAccount& phase, std::size_t incarnation, std::size_t p,
                                  const CallRecord& c) {
  const std::uint64_t hash = combine64(combine64(fnv1a64(c.call), fnv1a64(c.path)),
                                       combine64(fnv1a64(c.request), combine64(incarnation, p)));
  auto& slots = cost_cache_[hash];
  for (const CachedCost& s : slots) {
    if (s.incarnation == incarnation && s.phase == p && s.key->call == c.call &&
        s.key->path == c.path && s.key->request == c.request) {
      return *s.cost;
    }
  }
  auto [it, fresh] = phase.calls.try_emplace(
      CallKey{std::string(c.call), std::string(c.path), std::string(c.request)});
  slots.push_back({incarnation, p, &it->first, &it->second});
  return it->second;
}

void AccountBuilder::add_sample(const SampleRecord& s) {
  Incarnation* inc = find(s.who);
  if (!inc || s.bridge_writer) return;  // the observer's own thread is in no share
  const SpanSegments& segs = segments_[s.who];
  const auto* span = segs.innermost(s.tid, s.t_ns);
  const PhaseWindows& w = windows_[index_.at(s.who)];
  for (std::size_t p = 0; p < kPhases; ++p) {
    if (s.t_ns < w.begin[p] || s.t_ns >= w.end[p]) continue;
    PhaseAccount& phase = inc->phases[p];
    ++phase.samples[{span ? segs.names()[span->name] : std::string(), std::string(s.leaf)}];
    ++phase.sample_count;
  }
}

void AccountBuilder::add_other_syscall(IncarnationId who, Phase phase, const std::string& name,
                                       const OtherSyscall& totals) {
  Incarnation* inc = find(who);
  if (!inc) return;
  OtherSyscall& o = inc->phases[static_cast<std::size_t>(phase)].other_syscalls[name];
  o.count += totals.count;
  o.errors += totals.errors;
  o.ns += totals.ns;
}

void AccountBuilder::add_light(const LightTotal& t) {
  Incarnation* inc = find(t.who);
  if (!inc) return;
  PhaseAccount& phase = inc->phases[static_cast<std::size_t>(t.phase)];
  if (t.bridge_writer) {
    phase.writer_calls.add(t.total_ns, t.count, t.max_ns);
    return;
  }
  // With each request's time, a part per request; else one part whose key names the requests.
  const bool timed = !t.requests.empty() && std::all_of(t.requests.begin(), t.requests.end(),
                                                        [](const auto& r) { return r.total_ns; });
  if (timed) {
    for (const auto& r : t.requests) {
      phase.calls[{t.call, "", r.name}].add(*r.total_ns, r.count, std::min(t.max_ns, *r.total_ns));
    }
  } else {
    std::string requests;
    for (const auto& r : t.requests) requests += (requests.empty() ? "" : ",") + r.name;
    phase.calls[{t.call, "", requests}].add(t.total_ns, t.count, t.max_ns);
  }
  phase.crossing_bound_ns = std::max(phase.crossing_bound_ns, t.max_ns);
}

// docs/attribution.md, "The unit": light totals hold the protocol's waits at the harness
// phase's edges; the worker's own window says how long they were.
void AccountBuilder::take_protocol_waits(PhaseAccount& phase) {
  if (phase.own_window_ns == 0 || phase.own_window_ns >= phase.wall_ns) return;
  const std::uint64_t edges = phase.wall_ns - phase.own_window_ns;
  for (auto& [key, cost] : phase.calls) {
    if (key.call != "read") continue;
    const std::uint64_t take = std::min(edges, cost.ns);
    cost.ns -= take;
    phase.protocol_ns = take;
    break;
  }
  phase.wall_ns = phase.own_window_ns;
}

// Up to `excess` of a light phase's off-CPU parts (runnable first), taken as time at the phase's
// edges and added to clamped_ns; what was taken.
std::uint64_t AccountBuilder::take_off_cpu_at_edges(PhaseAccount& phase, std::uint64_t excess) {
  std::uint64_t taken = 0;
  for (const std::string_view call : {kOffCpuRunnable, kOffCpuBlocked}) {
    for (auto& [key, cost] : phase.calls) {
      if (key.call != call || taken == excess) continue;
      const std::uint64_t take = std::min(excess - taken, cost.ns);
      cost.ns -= take;
      taken += take;
    }
  }
  phase.clamped_ns += taken;
  return taken;
}

// Full detail: the time outside the traced calls and GC pauses, split by the span innermost on
// the thread. A span's share is its self time less the calls that entered in it and the pauses
// that began in it; a call that outlives its span makes that an underestimate, never a double
// count, and where the spans' shares would still exceed the time left (records that disagree)
// they are scaled down to it, so the parts keep summing to the phase time.
void AccountBuilder::split_rest_by_span(PhaseAccount& phase) {
  const std::uint64_t used = phase.syscall_ns() + phase.gc_ns;
  const std::uint64_t left = phase.thread_ns() > used ? phase.thread_ns() - used : 0;
  std::uint64_t wanted = 0;
  for (const auto& [name, s] : phase.spans) {
    const std::uint64_t traced = s.syscall_ns + s.gc_ns;
    const std::uint64_t ns = s.self_ns > traced ? s.self_ns - traced : 0;
    if (ns == 0) continue;
    phase.in_span[name] = ns;
    wanted += ns;
  }
  if (wanted <= left) return;
  for (auto& [name, ns] : phase.in_span) {
    ns = static_cast<std::uint64_t>(static_cast<long double>(ns) * left / wanted);
  }
}

RunAccount AccountBuilder::finish() {
  if (outside_cohort_) {
    run_.notes.push_back(
        fmt::format("{} records of processes outside the run's cohort were read and not counted",
                    outside_cohort_));
  }
  for (Incarnation& inc : run_.incarnations) {
    const IncarnationId who{inc.pid, inc.start_time_ticks};
    std::uint32_t threads = 0;
    for (const auto& [incarnation, tid] : workload_threads_) threads += incarnation == who ? 1 : 0;
    for (std::size_t p = 0; p < kPhases; ++p) {
      PhaseAccount& phase = inc.phases[p];
      phase.threads = std::max<std::uint32_t>(1, threads);
      if (run_.detail == CallDetail::light) take_protocol_waits(phase);
      const std::uint64_t in_gc = gc_calls_ns_[{who, p}];
      phase.gc_ns -= std::min(phase.gc_ns, in_gc);
      if (run_.detail == CallDetail::full) split_rest_by_span(phase);
      const std::uint64_t used = phase.syscall_ns() + phase.gc_ns;
      if (used <= phase.thread_ns()) continue;
      std::uint64_t excess = used - phase.thread_ns();
      // Light detail: the totals are per harness phase, whose edges lie outside the worker's own
      // window; waits off the CPU there (between the protocol's calls) are counted in the phase
      // but not in the window. The excess is taken from them first, and said.
      if (run_.detail == CallDetail::light) excess -= take_off_cpu_at_edges(phase, excess);
      if (excess == 0) continue;
      // Light detail: a call that entered here and ended in the next phase. Within its bound,
      // the excess is taken from the call most likely to be it (the longest), and said.
      if (run_.detail == CallDetail::light && excess <= 2 * phase.crossing_bound_ns) {
        auto longest = std::max_element(
            phase.calls.begin(), phase.calls.end(),
            [](const auto& a, const auto& b) { return a.second.max_ns < b.second.max_ns; });
        const std::uint64_t take = std::min(excess, longest->second.ns);
        longest->second.ns -= take;
        phase.clamped_ns += take;
        continue;
      }
      run_.problems.push_back(fmt::format(
          "worker {} (pid {}), {}: the traced parts add up to {} ns, more than the phase's {} "
          "thread-ns: the inputs disagree",
          inc.worker, inc.pid, collectors::kPhases[p], used, phase.thread_ns()));
    }
  }
  return std::move(run_);
}

}  // namespace jbench::attribution
