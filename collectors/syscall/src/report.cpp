#include "report.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "event_writer.h"
#include "jbench/events/event_text.h"
#include "summary.h"
#include "syscall_table.h"

namespace jbench::collectors::syscall_detail {
namespace {

using Json = nlohmann::json;

// Registered workers, processes the harness added, and the processes the backend saw: forks are
// new incarnations; a registered pid seen with another start time was not the registered process.
void build_incarnations(const ReportInput& in, const Observed& observed, ReportOutput& out) {
  for (const auto& p : *in.registered) {
    out.incarnations.add({p.pid, p.start_time_ticks, p.worker_index, 0, "registered"});
  }
  for (const auto& p : *in.added) {
    if (!out.incarnations.find(p.pid, p.start_time_ticks)) {
      out.incarnations.add({p.pid, p.start_time_ticks, std::nullopt, 0, "added"});
    }
  }
  for (const auto& seen : observed.processes) {
    if (out.incarnations.find(seen.pid, seen.start_time_ticks)) continue;
    if (!seen.forked) {
      // A member's first call came from another process than the one registered under its pid.
      out.problems.push_back(
          fmt::format("pid {} was traced with start time {}, which is not a registered incarnation",
                      seen.pid, seen.start_time_ticks));
      continue;
    }
    out.incarnations.add({seen.pid, seen.start_time_ticks, std::nullopt, seen.parent, "forked"},
                         seen.first_t_ns);
  }
}

std::uint64_t phase_start(const ReportInput& in, int phase) {
  for (const auto& m : in.marks) {
    if (m.phase == phase) return m.t_ns;
  }
  return in.started_ns;
}

// A call record's own fields, as text (EventWriter::record): a full run writes one per call.
void append_call_fields(std::string& out, const CallRecord& c) {
  const TracedCall& traced = *call_by_id(c.call);
  auto field = [&out](std::string_view key) {
    out.append(",\"");
    out.append(key);
    out.append("\":");
  };
  auto text_or_null = [&out](const std::string* text) {
    if (text) {
      events::append_json_string(out, *text);
    } else {
      out.append("null");
    }
  };
  field("syscall");
  events::append_json_string(out, traced.name);
  field("phase");
  events::append_json_string(out, kPhases[c.phase]);
  field("fd");
  events::append_int(out, c.fd);
  field("result");
  if (c.result) {
    events::append_int(out, *c.result);
  } else {
    out.append("null");
  }
  field("duration_ns");
  out.push_back('"');
  events::append_decimal(out, c.duration_ns);
  out.push_back('"');
  field("path");
  text_or_null(c.path.empty() ? nullptr : &c.path);
  field("file");
  if (c.file) {
    events::append_json_string(out, c.file->to_string());
  } else {
    out.append("null");
  }
  if (c.result && *c.result < 0) {
    field("errno");
    events::append_json_string(out, errno_name(static_cast<int>(-*c.result)));
  }
  if (c.request) {
    field("request");
    events::append_json_string(out, request_name(traced, *c.request));
  }
  if (c.path_truncated) {
    field("path_truncated");
    out.append("true");
  }
  if (c.result_path) {
    field("result_path");
    text_or_null(&*c.result_path);
  }
  if (c.role == ThreadRole::bridge_writer) {
    field("thread_role");
    out.append("\"bridge_writer\"");
  }
  if (c.waker) {
    field("woken_by");
    events::append_json_string(out, c.waker->how);
    if (c.waker->how != "interrupt") {
      field("waker_pid");
      events::append_int(out, c.waker->pid);
      field("waker_tid");
      events::append_int(out, c.waker->tid);
    }
    if (c.waker->woken_ns) {
      field("woken_ns");
      out.push_back('"');  // a 64-bit value, quoted as t_ns is
      events::append_decimal(out, *c.waker->woken_ns);
      out.push_back('"');
    }
  }
}

// An on-CPU sample's own fields (EventWriter::record, type cpu_sample): its phase, whether it
// interrupted the kernel, and its user stack folded root first ("main;run;leaf"), with the leaf
// apart; or why the stack could not be read.
void append_sample_fields(std::string& out, const CpuSample& s) {
  out.append(",\"phase\":");
  events::append_json_string(out, kPhases[s.phase]);
  out.append(s.in_kernel ? ",\"in_kernel\":true" : ",\"in_kernel\":false");
  if (s.frames.empty()) {
    out.append(",\"stack_error\":");
    events::append_json_string(out, s.stack_error ? errno_name(s.stack_error) : "no frames");
  } else {
    std::string folded;
    for (auto f = s.frames.rbegin(); f != s.frames.rend(); ++f) {
      if (!folded.empty()) folded.push_back(';');
      folded.append(*f);
    }
    out.append(",\"stack\":");
    events::append_json_string(out, folded);
    out.append(",\"leaf\":");
    events::append_json_string(out, s.frames.front());
  }
  if (s.role == ThreadRole::bridge_writer) out.append(",\"thread_role\":\"bridge_writer\"");
}

// An object's members but its type, as record fields (EventWriter::record).
std::string fields_text(const Json& record) {
  std::string out;
  for (const auto& [key, value] : record.items()) {
    if (key == "type") continue;
    out.append(",");
    out.append(Json(key).dump());
    out.append(":");
    out.append(value.dump());
  }
  return out;
}

Json totals_record_json(int phase, int call, const Totals& t) {
  Json r = {{"type", "syscall_totals"},
            {"syscall", call_by_id(call)->name},
            {"phase", kPhases[phase]},
            {"count", t.count},
            {"errors", t.errors},
            {"total_ns", events::decimal(t.total_ns)},
            {"max_ns", events::decimal(t.max_ns)},
            {"histogram", histogram_json(t.log2_buckets)}};
  if (has_request(*call_by_id(call))) {
    std::map<std::string, RequestTotals> named;
    add_requests(named, *call_by_id(call), t);
    r["requests"] = requests_json(named);
  }
  return r;
}

// The calls in the order each thread entered them (per-CPU buffers deliver them out of order),
// as indices: equal keys keep their order, and the records, large and many, are not moved.
std::vector<std::size_t> entry_order(const std::vector<CallRecord>& calls) {
  std::vector<std::size_t> order(calls.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&calls](std::size_t a, std::size_t b) {
    return std::tie(calls[a].t_ns, calls[a].tid, a) < std::tie(calls[b].t_ns, calls[b].tid, b);
  });
  return order;
}

void write_calls(const ReportInput& in, Observed& observed, ReportOutput& out, EventWriter& writer,
                 SummaryBuilder& summary) {
  FdTables tables;
  for (std::size_t who = 0; who < out.incarnations.size(); ++who) {
    auto snap = in.snapshots->find(out.incarnations[who].pid);
    if (snap != in.snapshots->end() && out.incarnations[who].origin != "forked") {
      tables.seed(who, snap->second);
    }
  }
  std::map<pid_t, std::uint64_t> unattributed;
  std::string fields;
  // The samples go in among the calls, each thread's stream in time order (the per-CPU rings
  // deliver them out of order).
  std::sort(observed.samples.begin(), observed.samples.end(),
            [](const CpuSample& a, const CpuSample& b) {
              return std::tie(a.t_ns, a.tid) < std::tie(b.t_ns, b.tid);
            });
  const std::vector<std::size_t> calls = entry_order(observed.calls);
  std::size_t next_sample = 0;
  const auto write_samples_until = [&](std::uint64_t t_ns) {
    for (; next_sample < observed.samples.size() && observed.samples[next_sample].t_ns <= t_ns;
         ++next_sample) {
      const CpuSample& s = observed.samples[next_sample];
      const auto who = out.incarnations.at(s.pid, s.t_ns);
      if (!who) continue;  // a sample of a process the run does not know: counted nowhere
      const Incarnation& inc = out.incarnations[*who];
      fields.clear();
      append_sample_fields(fields, s);
      writer.record(inc.pid, inc.start_time_ticks, s.tid, s.t_ns, "cpu_sample", fields);
    }
  };
  for (std::size_t i : calls) {
    CallRecord& c = observed.calls[i];
    write_samples_until(c.t_ns);
    auto who = out.incarnations.at(c.pid, c.t_ns);
    if (!who) {
      ++unattributed[c.pid];
      continue;
    }
    const Incarnation& inc = out.incarnations[*who];
    if (!tables.has(*who) && inc.parent != 0) {
      if (auto parent = out.incarnations.at(inc.parent, c.t_ns)) tables.inherit(*who, *parent);
    }
    const FileKey key = tables.resolve(*who, c);
    summary.add_call(*who, c, key);
    fields.clear();
    append_call_fields(fields, c);
    writer.record(inc.pid, inc.start_time_ticks, c.tid, c.t_ns, "syscall", fields);
  }
  write_samples_until(UINT64_MAX);
  for (const auto& [pid, n] : unattributed) {
    out.problems.push_back(
        fmt::format("{} call(s) of pid {} belong to no known incarnation", n, pid));
  }
}

void write_totals(const ReportInput& in, Observed& observed, ReportOutput& out, EventWriter& writer,
                  SummaryBuilder& summary) {
  std::map<pid_t, std::size_t> incarnations_per_pid;
  for (const auto& inc : out.incarnations.list()) ++incarnations_per_pid[inc.pid];
  std::map<pid_t, std::uint64_t> unattributed;
  for (const auto& [key, totals] : observed.totals) {
    auto who = out.incarnations.at(key.pid, phase_start(in, key.phase));
    if (!who) {
      unattributed[key.pid] += totals.count;
      continue;
    }
    if (incarnations_per_pid[key.pid] > 1) {
      out.problems.push_back(fmt::format(
          "pid {} was {} processes during the run; totals aggregated by pid cannot tell them "
          "apart{}",
          key.pid, incarnations_per_pid[key.pid], observed.per_call ? "" : " (use full detail)"));
      incarnations_per_pid[key.pid] = 1;  // said once
    }
    const Incarnation& inc = out.incarnations[*who];
    summary.add_totals(*who, key, totals);
    // Full detail: the records are the calls', in time order per thread; the other calls'
    // totals are the summary's only.
    if (observed.per_call) continue;
    Json record = totals_record_json(key.phase, key.call, totals);
    if (key.role == ThreadRole::bridge_writer) record["thread_role"] = "bridge_writer";
    writer.record(inc.pid, inc.start_time_ticks, inc.pid, phase_start(in, key.phase),
                  "syscall_totals", fields_text(record));
  }
  for (const auto& [pid, n] : unattributed) {
    out.problems.push_back(
        fmt::format("{} call(s) of pid {} belong to no known incarnation", n, pid));
  }
}

}  // namespace

ReportOutput write_report(const ReportInput& in, Observed& observed) {
  ReportOutput out;
  build_incarnations(in, observed, out);
  SummaryBuilder summary(out.incarnations, observed.thread_roles);
  EventWriter writer(in.events_path, in.max_output_bytes);
  if (const jbench::Status opened = writer.open(in.header); !opened) {
    out.write_error = opened.error().message;
    return out;
  }
  // Full detail: a record per call, and the summary's totals of the other system calls
  // (syscall:other).
  if (observed.per_call) write_calls(in, observed, out, writer, summary);
  write_totals(in, observed, out, writer, summary);
  out.records = writer.records();
  out.refused = writer.refused();
  out.over_bound = writer.overflowed();
  out.calls = summary.calls();
  out.summary = summary.to_json();
  if (const jbench::Status closed = writer.close(observed.lost, observed.malformed, in.ended);
      !closed) {
    out.write_error = closed.error().message;
  }
  return out;
}

}  // namespace jbench::collectors::syscall_detail
