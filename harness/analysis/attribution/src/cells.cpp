#include "cells.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "jbench/stats/bootstrap.h"
#include "jbench/stats/power.h"
#include "resample.h"

namespace jbench::attribution {
namespace {

constexpr std::size_t kMeasure = static_cast<std::size_t>(Phase::measure);

// What the account parts are keyed by across runs: a call key, the GC part, or a span's time
// outside the calls and pauses.
struct PartId {
  bool gc = false;
  CallKey key;
  std::string span;
  auto operator<=>(const PartId&) const = default;
};

// One run's measure phase, pooled over its incarnations.
struct RunMeasure {
  double thread_ns = 0;
  double wall_ns = 0;
  double ops = 0;
  double statements = 0;
  std::map<PartId, double> ns;
  std::map<PartId, double> count;
  double writer_ns = 0;
  double protocol_ns = 0;
  std::optional<double> cpu_ns = 0.0;
  std::optional<double> on_cpu_ns = 0.0;  // schedstat, the workload's threads
  std::optional<double> runnable_ns = 0.0;
  double cpu_window_ns = 0;
  std::map<std::string, SpanCost> spans;
  std::uint32_t threads = 1;
  // (waiting worker, what it waited in, who woke it) -> ns; and each worker's thread-time.
  std::map<std::tuple<std::uint32_t, std::string, std::string>, double> woken;
  std::map<std::uint32_t, double> worker_ns;
  std::map<std::pair<std::string, std::string>, double> samples;  // (span, leaf) -> samples
  double sample_count = 0;
  std::map<std::string, OtherSyscall> other_syscalls;  // by name
};

RunMeasure pool(const RunAccount& run) {
  RunMeasure m;
  for (const Incarnation& inc : run.incarnations) {
    const PhaseAccount& p = inc.phases[kMeasure];
    m.thread_ns += static_cast<double>(p.thread_ns());
    m.wall_ns = std::max(m.wall_ns, static_cast<double>(p.wall_ns));
    m.ops += static_cast<double>(p.operations);
    m.statements += static_cast<double>(p.statements);
    m.threads = std::max(m.threads, p.threads);
    m.worker_ns[inc.worker] += static_cast<double>(p.thread_ns());
    for (const auto& [key, n] : p.samples) m.samples[key] += static_cast<double>(n);
    for (const auto& [name, o] : p.other_syscalls) {
      OtherSyscall& t = m.other_syscalls[name];
      t.count += o.count;
      t.errors += o.errors;
      t.ns += o.ns;
    }
    m.sample_count += static_cast<double>(p.sample_count);
    for (const auto& [key, ns] : p.woken) {
      m.woken[{inc.worker, key.first, key.second}] += static_cast<double>(ns);
    }
    for (const auto& [key, cost] : p.calls) {
      m.ns[{false, key, {}}] += static_cast<double>(cost.ns);
      m.count[{false, key, {}}] += static_cast<double>(cost.count);
    }
    if (p.gc_pauses || p.gc_ns) {
      m.ns[{true, {}, {}}] += static_cast<double>(p.gc_ns);
      m.count[{true, {}, {}}] += static_cast<double>(p.gc_pauses);
    }
    for (const auto& [name, ns] : p.in_span) {
      m.ns[{false, {}, name}] += static_cast<double>(ns);
      const auto span = p.spans.find(name);
      m.count[{false, {}, name}] +=
          span == p.spans.end() ? 0.0 : static_cast<double>(span->second.count);
    }
    m.writer_ns += static_cast<double>(p.writer_calls.ns);
    m.protocol_ns += static_cast<double>(p.protocol_ns);
    if (m.cpu_ns && p.cpu_ns) {
      *m.cpu_ns += static_cast<double>(*p.cpu_ns);
      m.cpu_window_ns += static_cast<double>(p.cpu_window_ns) * p.threads;
    } else {
      m.cpu_ns.reset();
    }
    if (m.on_cpu_ns && m.runnable_ns && p.on_cpu_ns && p.runnable_ns) {
      *m.on_cpu_ns += static_cast<double>(*p.on_cpu_ns);
      *m.runnable_ns += static_cast<double>(*p.runnable_ns);
    } else {
      m.on_cpu_ns.reset();
      m.runnable_ns.reset();
    }
    for (const auto& [name, s] : p.spans) {
      SpanCost& t = m.spans[name];
      t.count += s.count;
      t.total_ns += s.total_ns;
      t.self_ns += s.self_ns;
      t.syscall_ns += s.syscall_ns;
      t.gc_ns += s.gc_ns;
    }
  }
  return m;
}

double sum_of(const std::vector<RunMeasure>& runs, const std::vector<std::size_t>& pick,
              const std::function<double(const RunMeasure&)>& f) {
  double s = 0;
  for (const std::size_t i : pick) s += f(runs[i]);
  return s;
}

using Pick = std::vector<std::size_t>;
using Field = std::function<double(const RunMeasure&)>;
// A figure of the picked runs as its point and bootstrap interval (analyse_cell's `estimate`).
using Estimator = std::function<Estimate(const std::function<double(const Pick&)>&)>;

// A run's value under `key`, 0 where the run has none.
template <typename Map, typename Key>
double at_or_zero(const Map& values, const Key& key) {
  const auto it = values.find(key);
  return it == values.end() ? 0.0 : it->second;
}

// The sum of `num` over the picked runs divided by that of `den`; 0 where the latter is 0.
double ratio_of(const std::vector<RunMeasure>& runs, const Pick& pick, const Field& num,
                const Field& den) {
  const double d = sum_of(runs, pick, den);
  return d > 0 ? sum_of(runs, pick, num) / d : 0.0;
}

double part_ns(const RunMeasure& m, const PartId& id) { return at_or_zero(m.ns, id); }

// Who ended the waits: per worker, what it waited in and who woke it, as a share of that
// worker's time and per operation; largest first.
std::vector<WaitRow> wait_for_rows(const std::vector<RunMeasure>& runs, const Estimator& estimate) {
  std::set<std::tuple<std::uint32_t, std::string, std::string>> keys;
  for (const auto& m : runs) {
    for (const auto& [key, ns] : m.woken) keys.insert(key);
  }
  std::vector<WaitRow> rows;
  for (const auto& key : keys) {
    const Field woken_ns = [&key](const RunMeasure& m) { return at_or_zero(m.woken, key); };
    const Field worker_ns = [&key](const RunMeasure& m) {
      return at_or_zero(m.worker_ns, std::get<0>(key));
    };
    const Field ops = [](const RunMeasure& m) { return m.ops; };
    WaitRow row{std::get<0>(key), std::get<1>(key), std::get<2>(key), {}, {}};
    row.share =
        estimate([&](const Pick& pick) { return ratio_of(runs, pick, woken_ns, worker_ns); });
    row.ns_per_op = estimate([&](const Pick& pick) { return ratio_of(runs, pick, woken_ns, ops); });
    rows.push_back(std::move(row));
  }
  std::stable_sort(rows.begin(), rows.end(), [](const WaitRow& a, const WaitRow& b) {
    return a.share.value > b.share.value;
  });
  return rows;
}

// The on-CPU samples by (span, leaf function), where every run sampled at the same rate: their
// share of the samples and the CPU time they stand for per operation; largest first.
std::optional<CpuSamples> cpu_sample_rows(const CellInputs& in, const std::vector<RunMeasure>& runs,
                                          const Estimator& estimate) {
  const std::optional<double> hz = in.runs.front()->sample_hz;
  const bool sampled = hz && *hz > 0 &&
                       std::all_of(in.runs.begin(), in.runs.end(),
                                   [&](const RunAccount* r) { return r->sample_hz == hz; });
  if (!sampled) return std::nullopt;
  Pick all(runs.size());
  std::iota(all.begin(), all.end(), 0);
  const Field count = [](const RunMeasure& m) { return m.sample_count; };
  const double operations = sum_of(runs, all, [](const RunMeasure& m) { return m.ops; });
  CpuSamples cs;
  cs.hz = *hz;
  cs.samples_per_run = sum_of(runs, all, count) / static_cast<double>(runs.size());
  std::set<std::pair<std::string, std::string>> keys;
  for (const auto& m : runs) {
    for (const auto& [key, n] : m.samples) keys.insert(key);
  }
  for (const auto& key : keys) {
    const Field of_key = [&key](const RunMeasure& m) { return at_or_zero(m.samples, key); };
    SampleRow row{key.first, key.second, {}, std::nullopt};
    row.share = estimate([&](const Pick& pick) { return ratio_of(runs, pick, of_key, count); });
    if (operations > 0) row.ns_per_op = sum_of(runs, all, of_key) * 1e9 / *hz / operations;
    cs.rows.push_back(std::move(row));
  }
  std::stable_sort(cs.rows.begin(), cs.rows.end(), [](const SampleRow& a, const SampleRow& b) {
    return a.share.value > b.share.value;
  });
  return cs;
}

// The other system calls by name: calls, errors and time per operation and the time's share of
// the workload threads' time; the longest first.
std::vector<OtherSyscallRow> other_syscall_rows(const std::vector<RunMeasure>& runs,
                                                const Estimator& estimate) {
  std::set<std::string> names;
  for (const auto& m : runs) {
    for (const auto& [name, o] : m.other_syscalls) names.insert(name);
  }
  Pick all(runs.size());
  std::iota(all.begin(), all.end(), 0);
  const Field ops = [](const RunMeasure& m) { return m.ops; };
  const Field thread_ns = [](const RunMeasure& m) { return m.thread_ns; };
  std::vector<OtherSyscallRow> rows;
  for (const auto& name : names) {
    const auto of = [&name](const RunMeasure& m) {
      const auto it = m.other_syscalls.find(name);
      return it == m.other_syscalls.end() ? OtherSyscall{} : it->second;
    };
    const Field ns = [&of](const RunMeasure& m) { return static_cast<double>(of(m).ns); };
    OtherSyscallRow row{name, 0, 0, {}, {}};
    row.calls_per_op = ratio_of(
        runs, all, [&of](const RunMeasure& m) { return static_cast<double>(of(m).count); }, ops);
    row.errors_per_op = ratio_of(
        runs, all, [&of](const RunMeasure& m) { return static_cast<double>(of(m).errors); }, ops);
    row.ns_per_op = estimate([&](const Pick& pick) { return ratio_of(runs, pick, ns, ops); });
    row.share = estimate([&](const Pick& pick) { return ratio_of(runs, pick, ns, thread_ns); });
    rows.push_back(std::move(row));
  }
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.ns_per_op.value > b.ns_per_op.value;
  });
  return rows;
}

// The first of the cell's runs with a timeline (full detail), per incarnation as shares.
std::optional<Timeline> timeline_of(const CellInputs& in) {
  for (const RunAccount* run : in.runs) {
    Timeline t;
    t.run = run->id;
    for (const Incarnation& inc : run->incarnations) {
      const PhaseAccount& p = inc.phases[kMeasure];
      if (!p.timeline || p.timeline->end_ns <= p.timeline->begin_ns) continue;
      const TimelineBins& bins = *p.timeline;
      const double bin_ns = static_cast<double>(bins.end_ns - bins.begin_ns) /
                            static_cast<double>(kTimelineBins) * p.threads;
      const auto shares = [bin_ns](const std::vector<std::uint64_t>& ns) {
        std::vector<double> out;
        for (const std::uint64_t v : ns) {
          out.push_back(std::round(std::min(1.0, static_cast<double>(v) / bin_ns) * 1000) / 1000);
        }
        return out;
      };
      if (t.incarnations.empty()) t.window_ns = static_cast<double>(bins.end_ns - bins.begin_ns);
      t.incarnations.push_back({inc.worker, p.threads, shares(bins.blocked), shares(bins.runnable),
                                shares(bins.in_calls)});
    }
    if (!t.incarnations.empty()) return t;
  }
  return std::nullopt;
}

double rest_ns(const RunMeasure& m) {
  double used = 0;
  for (const auto& [id, ns] : m.ns) used += ns;
  return std::max(0.0, m.thread_ns - used);
}

std::string cell_seed(const CellInputs& in) { return in.cell + "/" + in.mode; }

// The cell's runs pooled, and the figures every row is estimated from: sums over a pick of the
// runs, and each figure's bootstrap interval over the cell's resamples of its runs.
class PooledRuns {
 public:
  explicit PooledRuns(const CellInputs& in) {
    for (const RunAccount* r : in.runs) runs_.push_back(pool(*r));
    all_.resize(runs_.size());
    std::iota(all_.begin(), all_.end(), 0);
    samples_ = resample_runs(runs_.size(), kResamples, cell_seed(in));
    for (const auto& m : runs_) {
      for (const auto& [id, ns] : m.ns) {
        if (std::find(ids_.begin(), ids_.end(), id) == ids_.end()) ids_.push_back(id);
      }
    }
  }

  const std::vector<RunMeasure>& runs() const { return runs_; }
  const Pick& all() const { return all_; }
  const std::vector<Pick>& samples() const { return samples_; }
  const std::vector<PartId>& ids() const { return ids_; }

  double sum(const Pick& pick, const Field& f) const { return sum_of(runs_, pick, f); }
  double thread_ns(const Pick& pick) const {
    return sum(pick, [](const RunMeasure& m) { return m.thread_ns; });
  }
  double ops(const Pick& pick) const {
    return sum(pick, [](const RunMeasure& m) { return m.ops; });
  }
  double share_of(const PartId& id, const Pick& pick) const {
    const double t = thread_ns(pick);
    return t > 0 ? sum(pick, [&](const RunMeasure& m) { return part_ns(m, id); }) / t : 0.0;
  }
  // A figure of the picked runs: its value over all of them, its interval over the resamples.
  Estimate estimate(const std::function<double(const Pick&)>& f) const {
    Estimate e{f(all_), std::nullopt, std::nullopt};
    if (!samples_.empty()) {
      std::vector<double> v;
      v.reserve(samples_.size());
      for (const auto& s : samples_) v.push_back(f(s));
      const auto [lo, hi] = stats::percentile_interval(v);
      e.low = lo;
      e.high = hi;
    }
    return e;
  }
  Estimator estimator() const {
    return [this](const std::function<double(const Pick&)>& f) { return estimate(f); };
  }
  // Whether every run has the figure `has` asks about.
  bool every(bool (*has)(const RunMeasure&)) const {
    return std::all_of(runs_.begin(), runs_.end(), has);
  }

 private:
  std::vector<RunMeasure> runs_;
  Pick all_;
  std::vector<Pick> samples_;
  std::vector<PartId> ids_;  // every part some run has, in the order the runs first have them
};

// What could not be attributed, once per (collector, status, reason), and the runs' notes, each
// once with the runs it is about.
void gather_notes(const CellInputs& in, CellAttribution& c) {
  std::map<std::string, std::vector<std::string>> notes;  // note -> the runs it is about
  for (const RunAccount* r : in.runs) {
    for (const auto& n : r->not_attributed) {
      const bool seen =
          std::any_of(c.not_attributed.begin(), c.not_attributed.end(), [&](const auto& o) {
            return o.collector == n.collector && o.status == n.status && o.reason == n.reason;
          });
      if (!seen) c.not_attributed.push_back(n);
    }
    for (const auto& note : r->notes) notes[note].push_back(r->id);
    if (r->thread_roles == "mixed") {
      notes
          ["the syscall backend could not tell the bridge writer thread apart: the syscall "
           "parts include its calls"]
              .push_back(r->id);
    }
  }
  for (const auto& [note, ids] : notes) {
    c.notes.push_back(ids.size() == in.runs.size() ? fmt::format("every run: {}", note)
                      : ids.size() == 1
                          ? fmt::format("{}: {}", ids.front(), note)
                          : fmt::format("{} runs ({}, ...): {}", ids.size(), ids.front(), note));
  }
}

// The observer: its overhead against the paired baselines, and the time that is its own; and the
// processes' time on a CPU beside it.
void observer_figures(const CellInputs& in, const PooledRuns& p, double thread_ns,
                      CellAttribution& c) {
  if (in.overhead) {
    c.observer.median_ratio = in.overhead->median_ratio;
    c.observer.ci_low = in.overhead->ci_low;
    c.observer.ci_high = in.overhead->ci_high;
    c.observer.pairs = in.overhead->pairs;
    if (in.overhead->median_ratio) {
      c.observer.observer_share = std::max(0.0, 1.0 - 1.0 / *in.overhead->median_ratio);
    }
  }
  c.observer.writer_thread_share =
      p.sum(p.all(), [](const RunMeasure& m) { return m.writer_ns; }) / thread_ns;
  const double protocol = p.sum(p.all(), [](const RunMeasure& m) { return m.protocol_ns; });
  if (protocol > 0) c.protocol_wait_share = protocol / thread_ns;
  const double cpu_window = p.sum(p.all(), [](const RunMeasure& m) { return m.cpu_window_ns; });
  if (p.every([](const RunMeasure& m) { return m.cpu_ns.has_value(); }) && cpu_window > 0) {
    c.cpu_share = p.sum(p.all(), [](const RunMeasure& m) { return *m.cpu_ns; }) / cpu_window;
  }
}

// Each part's row (its share of the workload threads' time, its time and count per operation),
// largest first and ranked. `observer_share`: a part smaller than the observer's own time is not
// attributable.
std::vector<PartRow> part_rows(const PooledRuns& p, bool off_cpu_traced,
                               std::optional<double> observer_share) {
  const double operations = p.ops(p.all());
  std::vector<PartRow> rows;
  for (const PartId& id : p.ids()) {
    PartRow row;
    row.kind = id.gc ? "gc" : id.span.empty() ? "syscall" : "span";
    row.key = id.key;
    row.span = id.span;
    row.label = id.gc             ? "GC pauses"
                : id.span.empty() ? id.key.label()
                : off_cpu_traced  ? fmt::format("on a CPU in {}", id.span)
                                  : fmt::format("in {} outside traced calls", id.span);
    row.share = p.estimate([&](const Pick& pick) { return p.share_of(id, pick); });
    row.ns_per_op = p.estimate([&](const Pick& pick) {
      const double o = p.ops(pick);
      return o > 0 ? p.sum(pick, [&](const RunMeasure& m) { return part_ns(m, id); }) / o : 0.0;
    });
    if (operations > 0) {
      double n = 0;
      for (const auto& m : p.runs()) n += at_or_zero(m.count, id);
      row.count_per_op = n / operations;
    }
    if (observer_share) row.attributable = row.share.value >= *observer_share;
    rows.push_back(std::move(row));
  }
  std::stable_sort(rows.begin(), rows.end(), [](const PartRow& a, const PartRow& b) {
    return a.share.value > b.share.value;
  });
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i].rank = static_cast<int>(i + 1);
  return rows;
}

// What no part names: the workload threads' time outside every part, labelled by what it can
// still hold.
PartRow rest_row(const PooledRuns& p, bool syscalls_attributed, bool off_cpu_traced,
                 bool spans_split) {
  PartRow rest;
  rest.kind = "rest";
  rest.label = !syscalls_attributed            ? "not attributed (no traced-syscall evidence)"
               : off_cpu_traced && spans_split ? kRestOnCpuOutsideSpans
               : off_cpu_traced                ? kRestOnCpu
               : spans_split ? "rest: outside every span (on-CPU elsewhere and untraced waiting)"
                             : "rest: on-CPU elsewhere and untraced waiting";
  rest.share = p.estimate([&](const Pick& pick) {
    const double t = p.thread_ns(pick);
    return t > 0 ? p.sum(pick, rest_ns) / t : 0.0;
  });
  rest.ns_per_op = p.estimate([&](const Pick& pick) {
    const double o = p.ops(pick);
    return o > 0 ? p.sum(pick, rest_ns) / o : 0.0;
  });
  return rest;
}

// The same time split by the scheduler's own accounting, beside the parts (it overlaps them);
// none unless every run has it.
std::optional<CellAttribution::SchedulerSplit> scheduler_split(const PooledRuns& p) {
  const double cpu_window = p.sum(p.all(), [](const RunMeasure& m) { return m.cpu_window_ns; });
  const bool known = p.every([](const RunMeasure& m) { return m.cpu_ns.has_value(); }) &&
                     p.every([](const RunMeasure& m) { return m.runnable_ns.has_value(); });
  if (!known || cpu_window <= 0) return std::nullopt;
  using Of = double (*)(const RunMeasure&);
  const Of on_cpu = [](const RunMeasure& m) { return *m.on_cpu_ns; };
  const Of runnable = [](const RunMeasure& m) { return *m.runnable_ns; };
  const auto share = [&](const Pick& pick, Of field) {
    const double w = p.sum(pick, [](const RunMeasure& m) { return m.cpu_window_ns; });
    return w > 0 ? p.sum(pick, field) / w : 0.0;
  };
  CellAttribution::SchedulerSplit s{
      p.estimate([&](const Pick& pick) { return share(pick, on_cpu); }),
      p.estimate([&](const Pick& pick) { return share(pick, runnable); }),
      p.estimate([&](const Pick& pick) {
        return std::max(0.0, 1.0 - share(pick, on_cpu) - share(pick, runnable));
      })};
  const double operations = p.ops(p.all());
  if (operations > 0) {
    s.on_cpu_ns_per_op = p.sum(p.all(), on_cpu) / operations;
    s.runnable_ns_per_op = p.sum(p.all(), runnable) / operations;
    s.blocked_ns_per_op =
        std::max(0.0, cpu_window / operations - s.on_cpu_ns_per_op - s.runnable_ns_per_op);
  }
  return s;
}

// How often the top-ranked part stays on top when the repetitions are resampled.
void top_stability(const PooledRuns& p, CellAttribution& c) {
  if (c.parts.size() <= 1 || c.parts.front().kind == "rest") return;
  c.top_label = c.parts.front().label;
  if (p.samples().empty()) return;
  const PartId top{c.parts.front().kind == "gc", c.parts.front().key, c.parts.front().span};
  std::size_t stays = 0;
  for (const auto& s : p.samples()) {
    const double mine = p.share_of(top, s);
    const bool on_top = std::none_of(p.ids().begin(), p.ids().end(), [&](const PartId& id) {
      return !(id == top) && p.share_of(id, s) > mine;
    });
    stays += on_top ? 1 : 0;
  }
  c.top_stays_on_top = static_cast<double>(stays) / static_cast<double>(p.samples().size());
}

// The noise floor: the smallest change a comparison of this many baseline runs each way would
// see (two-sided 5%, power 80%), by the rank test jbench decides with (jbench/stats/power.h).
DetectableEffect noise_floor(const std::vector<double>& base) {
  DetectableEffect d;
  d.baseline_runs = base.size();
  if (base.size() >= 2 && std::accumulate(base.begin(), base.end(), 0.0) > 0) {
    const double cv = stats::coefficient_of_variation(base.data(), base.size());
    d.baseline_cv = cv;
    d.fraction_of_wall = stats::minimum_detectable_change(cv, base.size(), base.size());
  }
  return d;
}

// The span view: totals and self times, with the calls and GC inside, by self time.
std::vector<SpanRow> span_rows(const PooledRuns& p, double thread_ns) {
  std::map<std::string, SpanCost> spans;
  for (const auto& m : p.runs()) {
    for (const auto& [name, s] : m.spans) {
      SpanCost& t = spans[name];
      t.count += s.count;
      t.total_ns += s.total_ns;
      t.self_ns += s.self_ns;
      t.syscall_ns += s.syscall_ns;
      t.gc_ns += s.gc_ns;
    }
  }
  const double operations = p.ops(p.all());
  std::vector<SpanRow> rows;
  for (const auto& [name, s] : spans) {
    SpanRow row;
    const auto colon = name.find(':');
    row.name = colon == std::string::npos ? name : name.substr(0, colon);
    row.plan_class = colon == std::string::npos ? "" : name.substr(colon + 1);
    row.count_per_op = operations > 0 ? static_cast<double>(s.count) / operations : 0;
    row.total_share = static_cast<double>(s.total_ns) / thread_ns;
    row.self_share = static_cast<double>(s.self_ns) / thread_ns;
    row.syscall_share = static_cast<double>(s.syscall_ns) / thread_ns;
    row.gc_share = static_cast<double>(s.gc_ns) / thread_ns;
    rows.push_back(row);
  }
  std::sort(rows.begin(), rows.end(),
            [](const SpanRow& a, const SpanRow& b) { return a.self_share > b.self_share; });
  return rows;
}

}  // namespace

CellAttribution analyse_cell(const CellInputs& in) {
  CellAttribution c;
  c.cell = in.cell;
  c.mode = in.mode;
  c.observer.mode = in.mode;
  c.repetitions = in.runs.size();
  if (in.runs.empty()) return c;
  c.values = in.runs.front()->values;
  c.operation_unit = in.runs.front()->operation_unit;
  c.incarnations = in.runs.front()->incarnations.size();
  gather_notes(in, c);
  c.syscalls_attributed = std::all_of(in.runs.begin(), in.runs.end(), [](const RunAccount* r) {
    return r->detail != CallDetail::none;
  });

  const PooledRuns p(in);
  const double n_runs = static_cast<double>(p.runs().size());
  const double thread_ns = p.thread_ns(p.all());
  c.wall_ns_per_run = p.sum(p.all(), [](const RunMeasure& m) { return m.wall_ns; }) / n_runs;
  c.operations_per_run = p.ops(p.all()) / n_runs;
  c.statements_per_run = p.sum(p.all(), [](const RunMeasure& m) { return m.statements; }) / n_runs;
  c.threads = p.runs().front().threads;
  if (thread_ns <= 0) {
    c.notes.push_back("the measure phase has no recorded time");
    return c;
  }
  observer_figures(in, p, thread_ns, c);
  // The compiled tracer follows every wait off the CPU outside the traced calls (none observed is
  // an answer too): what is outside its parts was on a CPU.
  const auto& ids = p.ids();
  const bool off_cpu_traced =
      std::all_of(in.runs.begin(), in.runs.end(),
                  [](const RunAccount* r) { return r->backend == "libbpf"; }) ||
      std::any_of(ids.begin(), ids.end(),
                  [](const PartId& id) { return !id.gc && is_off_cpu(id.key.call); });
  const bool spans_split =
      std::any_of(ids.begin(), ids.end(), [](const PartId& id) { return !id.span.empty(); });
  c.parts = part_rows(p, off_cpu_traced, c.observer.observer_share);
  c.parts.push_back(rest_row(p, c.syscalls_attributed, off_cpu_traced, spans_split));
  c.scheduler = scheduler_split(p);
  top_stability(p, c);
  c.detectable = noise_floor(in.baseline_throughput);
  c.wait_for = wait_for_rows(p.runs(), p.estimator());
  c.cpu_samples = cpu_sample_rows(in, p.runs(), p.estimator());
  c.other_syscalls = other_syscall_rows(p.runs(), p.estimator());
  c.timeline = timeline_of(in);
  c.spans = span_rows(p, thread_ns);
  return c;
}

std::vector<std::pair<std::string, double>> ns_per_op_by_label(const CellAttribution& cell) {
  std::vector<std::pair<std::string, double>> out;
  // The rest too: contention that no tracer sees (a lock's busy handler sleeping, user code)
  // grows there.
  for (const auto& p : cell.parts) out.emplace_back(p.label, p.ns_per_op.value);
  // And the scheduler's states, which say of what kind the rest's growth is.
  if (const auto& s = cell.scheduler) {
    out.emplace_back(kSchedulerOnCpu, s->on_cpu_ns_per_op);
    out.emplace_back(kSchedulerRunnable, s->runnable_ns_per_op);
    out.emplace_back(kSchedulerBlocked, s->blocked_ns_per_op);
  }
  return out;
}

}  // namespace jbench::attribution
