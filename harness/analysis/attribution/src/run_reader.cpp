#include "run_reader.h"

#include <fmt/format.h>

#include <array>
#include <deque>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "jbench/bundle/json_file.h"
#include "jbench/events/event_file.h"
#include "jbench/events/flat_record.h"
#include "jbench/events/line_reader.h"
#include "jbench/model/documents.h"
#include "jbench/model/fields.h"
#include "jbench/model/summary.h"

namespace jbench::attribution {
namespace {

using Json = nlohmann::json;

// A file as the account keys it: the same file of every repetition under one name. The run's own
// directories (its scratch copy of the dataset, its staging raw files) are dropped up to
// "runs/<id>/"; pipes and sockets, whose inode differs per run, are named by their kind and fd.
std::string account_path(std::string_view path, std::int64_t fd, const std::string& run_id) {
  for (const std::string_view kind : {"pipe:[", "socket:[", "anon_inode:"}) {
    if (path.starts_with(kind)) {
      return fmt::format("{} (fd {})", path.substr(0, kind.find_first_of(":")), fd);
    }
  }
  if (path.ends_with("/runs/" + run_id)) return "(the run's directory)";
  const std::string mark = "/runs/" + run_id + "/";
  const auto at = path.find(mark);
  return std::string(at == std::string_view::npos ? path : path.substr(at + mark.size()));
}

using model::RunDocument;
using model::WorkerRecord;

// The phases are contiguous and cover the run (docs/attribution.md): each ends where the next
// begins, and teardown ends with the run.
Result<PhaseWindows> windows_of(const RunDocument& run, const std::string& where) {
  constexpr const char* kStarts[] = {"startup_start_ns", "warmup_start_ns", "measure_start_ns",
                                     "teardown_start_ns", "teardown_end_ns"};
  static_assert(std::size(kStarts) == kPhases + 1);
  std::array<std::uint64_t, kPhases + 1> at{};
  for (std::size_t i = 0; i < at.size(); ++i) {
    const auto v = run.boundary(kStarts[i]);
    if (!v) {
      return Error{fmt::format("{}: `{}` is missing or not a decimal string", where, kStarts[i]), 0,
                   ErrorKind::input};
    }
    at[i] = *v;
  }
  PhaseWindows w;
  for (std::size_t p = 0; p < kPhases; ++p) {
    w.begin[p] = at[p];
    w.end[p] = at[p + 1];
    if (w.end[p] < w.begin[p]) {
      return Error{
          fmt::format("{}: the boundaries run backwards at {}", where, collectors::kPhases[p]), 0,
          ErrorKind::input};
    }
  }
  return w;
}

// Full detail times every call, so each incarnation's measure phase is its own measured window
// (run.json workers[].measure_start_ns..measure_end_ns): the barrier wait before it goes to
// warmup and the wait for the other workers after it to teardown, and the phases stay contiguous.
PhaseWindows own_windows(const RunDocument& run, const Incarnation& inc, PhaseWindows w) {
  const WorkerRecord* worker = run.worker(inc.worker, inc.pid);
  if (!worker) return w;
  const auto begin = worker->measure_start_ns;
  const auto end = worker->measure_end_ns;
  const std::size_t m = static_cast<std::size_t>(Phase::measure);
  if (!begin || !end || *begin < w.begin[m] || *end < *begin || *end > w.end[kPhases - 1]) {
    return w;
  }
  w.end[m - 1] = w.begin[m] = *begin;
  w.end[m] = w.begin[m + 1] = *end;
  return w;
}

void add_step(Incarnation& inc, std::string step, std::optional<std::uint64_t> from,
              std::optional<std::uint64_t> to) {
  if (from && to && *to >= *from) inc.startup_steps.emplace_back(std::move(step), *to - *from);
}

// The startup steps the harness and the worker timed (run.json `startup_steps`, `workers`).
void startup_steps(const RunDocument& run, const WorkerRecord* worker, Incarnation& inc) {
  const auto s = [&run](const char* name) { return run.startup_step(name); };
  const WorkerRecord w = worker ? *worker : WorkerRecord{};
  const auto start = run.boundary("startup_start_ns");
  if (const auto released = s("released_ns")) {
    // Held before exec while the collectors attached: traced from the program's first
    // instruction.
    add_step(inc, "spawn (fork, held before exec)", start, s("spawned_ns"));
    add_step(inc, "admission and collector attach", s("spawned_ns"), s("collectors_attached_ns"));
    add_step(inc, "release", s("collectors_attached_ns"), released);
    add_step(inc, "exec, library loading, bridge initialisation (until hello; traced)", released,
             w.hello_t_ns);
    add_step(inc, "configure to ready (dataset, connection)", w.hello_t_ns, w.ready_t_ns);
  } else {
    add_step(inc, "spawn (fork, exec)", start, s("spawned_ns"));
    add_step(inc, "process start, library loading, bridge initialisation (until hello; not traced)",
             s("spawned_ns"), w.hello_t_ns);
    add_step(inc, "registration and collector attach", w.hello_t_ns, s("collectors_attached_ns"));
    add_step(inc, "configure to ready (dataset, connection)", s("collectors_attached_ns"),
             w.ready_t_ns);
  }
  if (w.open_ns) inc.startup_steps.emplace_back("of which connection open", *w.open_ns);
  add_step(inc, "canary", w.ready_t_ns, w.canary_t_ns);
  add_step(inc, "canaries verified", w.canary_t_ns, s("canaries_verified_ns"));
  add_step(inc, "until warmup starts (the other workers)", s("canaries_verified_ns"),
           run.boundary("warmup_start_ns"));
}

using model::CollectorEntry;

// Whether the collector recorded what it saw: listed, and ok.
bool recorded(const CollectorEntry* c) { return c && c->status == collectors::Status::ok; }

void note_collector(RunAccount& a, const CollectorEntry* c, const char* name, const char* part) {
  if (recorded(c)) return;
  const std::string status =
      c && c->status ? std::string(collectors::status_word(*c->status)) : "missing";
  a.not_attributed.push_back(
      {part, name, status, c ? c->reason.value_or("") : "the run records no such collector"});
}

// A malformed part of the run's files: an input error.
Error malformed(std::string why) { return Error{std::move(why), 0, ErrorKind::input}; }

// A malformed record, named by its file and line ("<rel>:<line>:1: <why>"). The place is
// formatted only when a record is refused: the readers call this per record.
Error malformed_at(const std::string& rel, std::size_t line, std::string_view why) {
  return malformed(fmt::format("{}:{}:1: {}", rel, line, why));
}

static_assert(model::kMeasurePhase == static_cast<std::size_t>(Phase::measure));

std::optional<std::uint64_t> whole_ns(std::optional<double> ns) {
  if (!ns) return std::nullopt;
  return static_cast<std::uint64_t>(*ns);
}

class Reader {
 public:
  Reader(const std::string& dir, const overhead_report::RunFacts& facts)
      : dir_(dir), facts_(facts) {
    rel_ = "runs/" + facts.id;
  }

  Result<RunRead> read() {
    RunRead out;
    if (const Status s = account(out); !s) return s.error();
    return out;
  }

 private:
  // run.json and summary.json typed (jbench/model), as the report's reading of the bundle left
  // them, into the run's account.
  Status account(RunRead& out) {
    if (!facts_.document)
      return malformed(fmt::format("run {}: its run.json was not read", facts_.id));
    if (!facts_.summary) return malformed(facts_.summary.error().message);
    const RunDocument& doc = *facts_.document;
    const model::Summary& summary = **facts_.summary;
    RunAccount a = header(doc, summary);
    const CollectorEntry* syscall = doc.collector("syscall");
    const CollectorEntry* bridge = doc.collector("bridge");
    const bool calls_ok = recorded(syscall);
    if (const Status s = results(a); !s) return s;
    const auto run_windows = windows_of(doc, rel_ + "/run.json");
    if (!run_windows) return run_windows.error();
    std::vector<PhaseWindows> incarnation_windows = windows(doc, *run_windows, calls_ok, a);
    AccountBuilder builder(std::move(a), std::move(incarnation_windows));
    if (bridge && recorded(doc.collector("spans"))) {
      if (const Status s = bridge_files(*bridge, builder, out.bytes); !s) return s;
    }
    builder.seal_spans();
    if (calls_ok && facts_.trace == TraceMode::full) {
      if (const Status s = syscall_records(*syscall, builder, out); !s) return s;
    }
    if (calls_ok) {
      // The syscall collector's summary, which a run whose collector recorded has.
      if (!summary.syscall) return malformed(rel_ + "/summary.json: no syscall collector summary");
      if (facts_.trace != TraceMode::full) light_totals(*summary.syscall, builder);
      other_syscalls(*summary.syscall, builder);
    }
    out.account = builder.finish();
    return {};
  }

  // The run's facts, its incarnations and what its collectors recorded.
  RunAccount header(const RunDocument& doc, const model::Summary& summary) const {
    RunAccount a;
    a.id = facts_.id;
    a.cell = facts_.cell;
    a.trace = facts_.trace;
    a.status = facts_.status;
    a.values = facts_.values;
    a.throughput = facts_.throughput;
    incarnations(doc, summary, a);
    const CollectorEntry* syscall = doc.collector("syscall");
    note_collector(a, syscall, "syscall", "traced syscalls");
    note_collector(a, doc.collector("gc"), "gc", "GC pauses");
    note_collector(a, doc.collector("spans"), "spans", "spans");
    note_collector(a, doc.collector("cpu"), "cpu", "on-CPU time");
    if (recorded(syscall)) {
      a.detail = facts_.trace == TraceMode::full ? CallDetail::full : CallDetail::light;
    }
    a.backend = syscall ? syscall->backend.value_or("") : "";
    // The compiled tracer's own member of its entry (docs/events.md).
    if (syscall) a.sample_hz = syscall->cpu_sample_hz;
    if (summary.syscall) a.thread_roles = summary.syscall->thread_roles;
    return a;
  }

  // Each incarnation's phase windows: the run's, or in full detail its own measure window.
  std::vector<PhaseWindows> windows(const RunDocument& doc, const PhaseWindows& run_windows,
                                    bool calls_ok, RunAccount& a) const {
    std::vector<PhaseWindows> windows;
    for (Incarnation& inc : a.incarnations) {
      // The cpu collector reads at the harness's boundaries, whatever window the calls use.
      for (std::size_t p = 0; p < kPhases; ++p)
        inc.phases[p].cpu_window_ns = run_windows.wall(static_cast<Phase>(p));
      windows.push_back(facts_.trace == TraceMode::full && calls_ok
                            ? own_windows(doc, inc, run_windows)
                            : run_windows);
    }
    if (facts_.trace == TraceMode::light && calls_ok) {
      const std::size_t m = static_cast<std::size_t>(Phase::measure);
      for (Incarnation& inc : a.incarnations) {
        inc.phases[m].own_window_ns = own_windows(doc, inc, run_windows).wall(Phase::measure);
      }
      a.notes.push_back(
          "light totals are per harness phase: the time a worker spent outside its own measure "
          "window (the protocol's blocking read of its next command) is taken out of `read` and "
          "shown apart; a call counts wholly in the phase it entered, so light ranks less "
          "sharply than full");
    }
    return windows;
  }

  void incarnations(const RunDocument& run, const model::Summary& summary, RunAccount& a) const {
    for (const model::Incarnation& m : run.cohort) {
      Incarnation inc;
      inc.worker = static_cast<std::uint32_t>(m.worker.value_or(0));
      inc.pid = m.pid;
      inc.start_time_ticks = m.start_time_ticks;
      inc.parent_pid = m.ppid;
      startup_steps(run, run.worker(inc.worker, inc.pid), inc);
      for (const auto& c : summary.cpu) {
        if (c.pid != inc.pid || c.start_time_ticks != inc.start_time_ticks) continue;
        for (std::size_t p = 0; p < kPhases; ++p) {
          if (!c.phases[p]) continue;
          inc.phases[p].cpu_ns = whole_ns(c.phases[p]->cpu_ns);
          inc.phases[p].on_cpu_ns = whole_ns(c.phases[p]->on_cpu_ns);
          inc.phases[p].runnable_ns = whole_ns(c.phases[p]->runnable_ns);
        }
      }
      a.incarnations.push_back(std::move(inc));
    }
  }

  // The measure phase's operations from each worker's result.
  Status results(RunAccount& a) const {
    for (Incarnation& inc : a.incarnations) {
      const std::string rel = fmt::format("{}/raw/worker-{}.result.json", rel_, inc.worker);
      const auto result = read_json_object(dir_ + "/" + rel);
      if (!result) continue;  // a worker that left no result counts no operations
      model::Fields r(*result, rel);
      PhaseAccount& m = inc.phases[static_cast<std::size_t>(Phase::measure)];
      m.operations = r.optional_count("transactions").value_or(0);
      // A Chez worker's "transactions" are its batches (docs/chez-worker.md).
      if (r.optional_text("worker") == "chez") a.operation_unit = "batch";
      m.statements = r.optional_count("operations").value_or(0);
      if (!r.ok()) return r.error();
    }
    return {};
  }

  // Reads a raw file's records; the header and trailer are the validator's business. The first
  // record `each` refuses ends the reading with its error.
  using EachRecord = std::function<Status(const events::FlatRecord&, std::size_t)>;
  Status records(const std::string& rel, std::uint64_t& bytes, const EachRecord& each) {
    events::FlatRecord rec;
    std::optional<Error> failure;
    const auto r = events::for_each_line(
        dir_ + "/" + rel, kMaxLineBytes,
        [&](std::size_t n, std::string_view line) {
          if (line.find("\"kind\":\"record\"") == std::string_view::npos) return true;
          if (!rec.parse(line)) {
            // Records with nested values (light totals) are not read from here.
            if (Json::accept(line)) return true;
            failure = malformed_at(rel, n, "not a JSON object");
            return false;
          }
          if (Status s = each(rec, n); !s) failure = s.error();
          return !failure;
        },
        [&](std::size_t n) {
          failure = malformed_at(rel, n, fmt::format("a line longer than {} bytes", kMaxLineBytes));
        });
    bytes += r.bytes;
    if (!r.error.empty()) return Error{fmt::format("{}: {}", rel, r.error)};
    if (failure) return *failure;
    return {};
  }

  static Result<IncarnationId> who(const events::FlatRecord& r, const std::string& rel,
                                   std::size_t n) {
    const auto pid = r.integer("pid");
    const auto ticks = r.decimal("start_time_ticks");
    if (!pid || !ticks) return malformed_at(rel, n, "a record without pid and start_time_ticks");
    return IncarnationId{*pid, *ticks};
  }

  Status bridge_files(const CollectorEntry& bridge, AccountBuilder& b, std::uint64_t& bytes) {
    for (const auto& f : bridge.raw) {
      const std::string rel = rel_ + "/" + f;
      const Status read = records(rel, bytes, [&](const events::FlatRecord& r, std::size_t n) {
        return bridge_record(r, rel, n, b);
      });
      if (!read) return read;
    }
    return {};
  }

  // A span's or a GC pause's begin or end; any other record is not the account's.
  static Status bridge_record(const events::FlatRecord& r, const std::string& rel, std::size_t n,
                              AccountBuilder& b) {
    const auto type = r.string("type");
    if (!type) return malformed_at(rel, n, "a record without a type");
    const bool span = *type == "span_begin" || *type == "span_end";
    const bool gc = *type == "gc_begin" || *type == "gc_end";
    if (!span && !gc) return {};
    const auto t = r.decimal("t_ns");
    const auto tid = r.integer("tid");
    if (!t || !tid) return malformed_at(rel, n, "a record without t_ns and tid");
    const auto id = span ? r.string("span_id") : std::nullopt;
    const auto name = *type == "span_begin" ? r.string("name") : std::nullopt;
    if (*type == "span_begin" && (!id || !name)) {
      return malformed_at(rel, n, "span_begin without span_id and name");
    }
    if (*type == "span_end" && !id) return malformed_at(rel, n, "span_end without span_id");
    const auto inc = who(r, rel, n);
    if (!inc) return inc.error();
    if (*type == "span_begin") {
      b.add_span_begin(*inc, *tid, *id, *name, *t);
    } else if (*type == "span_end") {
      b.add_span_end(*inc, *tid, *id, *t);
    } else {
      b.add_gc(*inc, *tid, *type == "gc_begin", *t);
    }
    return {};
  }

  // An on-CPU sample: its leaf frame, or why its stack could not be read.
  Status sample(const events::FlatRecord& r, const std::string& rel, std::size_t n,
                AccountBuilder& b) {
    const auto t = r.decimal("t_ns");
    const auto tid = r.integer("tid");
    if (!t || !tid) {
      return malformed_at(rel, n, "a cpu_sample record needs t_ns and tid");
    }
    const auto inc = who(r, rel, n);
    if (!inc) return inc.error();
    SampleRecord s;
    s.who = *inc;
    s.tid = *tid;
    s.bridge_writer = r.string("thread_role") == "bridge_writer";
    s.t_ns = *t;
    const std::string_view leaf = r.string("leaf").value_or("(stack not readable)");
    // A sample in the kernel (a system call's work, a fault) is named by where user code entered
    // it: that is the last frame the user stack has.
    const events::FlatField* in_kernel = r.find("in_kernel");
    if (in_kernel && in_kernel->kind == events::FlatField::Kind::boolean && in_kernel->number) {
      kernel_leaf_ = "the kernel, entered from ";
      kernel_leaf_ += leaf;
      s.leaf = kernel_leaf_;
    } else {
      s.leaf = leaf;
    }
    b.add_sample(s);
    return {};
  }

  Status syscall_records(const CollectorEntry& syscall, AccountBuilder& b, RunRead& out) {
    const std::string rel =
        rel_ + "/" + (syscall.raw.size() == 1 ? syscall.raw[0] : "raw/syscall.events.jsonl");
    return records(rel, out.bytes, [&](const events::FlatRecord& r, std::size_t n) -> Status {
      if (r.string("type") == "cpu_sample") return sample(r, rel, n, b);
      if (r.string("type") != "syscall") return {};
      const auto call = r.string("syscall");
      const auto t = r.decimal("t_ns");
      const auto d = r.decimal("duration_ns");
      const auto tid = r.integer("tid");
      if (!call || !t || !d || !tid) {
        return malformed_at(rel, n, "a syscall record needs syscall, t_ns, duration_ns and tid");
      }
      const auto inc = who(r, rel, n);
      if (!inc) return inc.error();
      CallRecord c;
      c.who = *inc;
      c.tid = *tid;
      c.bridge_writer = r.string("thread_role") == "bridge_writer";
      c.call = *call;
      c.fd = r.integer("fd").value_or(-1);
      if (const auto path = r.string("path")) c.path = account_path_of(*path, c.fd);
      c.request = r.string("request").value_or("");
      c.woken_by = r.string("woken_by").value_or("");
      c.waker_pid = r.integer("waker_pid").value_or(0);
      c.waker_tid = r.integer("waker_tid").value_or(0);
      c.t_ns = *t;
      c.duration_ns = *d;
      b.add_call(c);
      ++out.syscall_records;
      return {};
    });
  }

  // A recorded path as the account keys it, worked out once per path.
  std::string_view account_path_of(std::string_view path, std::int64_t fd) {
    auto it = paths_.find(path);
    if (it == paths_.end()) {
      const std::string& owned = recorded_.emplace_back(path);
      it = paths_.emplace(owned, account_path(owned, fd, facts_.id)).first;
    }
    return it->second;
  }

  // Light detail: the collector's totals per incarnation, phase and call (summary.json).
  static void light_totals(const model::SyscallSummary& s, AccountBuilder& b) {
    for (const model::SyscallIncarnation& inc : s.incarnations) {
      const IncarnationId id{inc.pid, inc.start_time_ticks};
      for (const bool writer : {false, true}) {
        const auto& phases = writer ? inc.bridge_writer_phases : inc.phases;
        for (std::size_t p = 0; p < kPhases; ++p) {
          for (const model::SyscallCall& c : phases[p] ? *phases[p] : kNoCalls) {
            if (c.name == kOtherSyscalls) continue;  // beside the parts: other_syscalls
            LightTotal t{id, static_cast<Phase>(p), writer, c.name, c.count, c.total_ns, c.max_ns,
                         {}};
            for (const model::SyscallRequest& r : c.requests) {
              t.requests.push_back({r.name, r.count, r.total_ns});
            }
            b.add_light(t);
          }
        }
      }
    }
  }

  // Every other system call of the workload threads, from the summary (either detail).
  static void other_syscalls(const model::SyscallSummary& s, AccountBuilder& b) {
    for (const model::SyscallIncarnation& inc : s.incarnations) {
      const IncarnationId id{inc.pid, inc.start_time_ticks};
      for (std::size_t p = 0; p < kPhases; ++p) {
        for (const model::SyscallCall& c : inc.phases[p] ? *inc.phases[p] : kNoCalls) {
          if (c.name != kOtherSyscalls) continue;
          for (const model::SyscallRequest& r : c.requests) {
            b.add_other_syscall(id, static_cast<Phase>(p), r.name,
                                {r.count, r.errors, r.total_ns.value_or(0)});
          }
        }
      }
    }
  }

  static inline const std::vector<model::SyscallCall> kNoCalls;

  const std::string& dir_;
  const overhead_report::RunFacts& facts_;
  std::string rel_;
  std::deque<std::string> recorded_;  // the paths as recorded
  std::string kernel_leaf_;           // a kernel sample's name, built per record
  std::unordered_map<std::string_view, std::string> paths_;  // -> as the account keys them
};

}  // namespace

Result<RunRead> read_run(const std::string& bundle_dir, const overhead_report::RunFacts& run) {
  return Reader(bundle_dir, run).read();
}

}  // namespace jbench::attribution
