#include "jbench/model/summary.h"

namespace jbench::model {
namespace {

CpuPhase read_cpu(Fields& m) {
  return {m.optional_quantity("cpu_ns"),
          m.optional_quantity("voluntary_switches"),
          m.optional_quantity("involuntary_switches"),
          m.optional_quantity("minor_faults"),
          m.optional_quantity("major_faults"),
          m.optional_quantity("read_chars"),
          m.optional_quantity("written_chars"),
          m.optional_quantity("on_cpu_ns"),
          m.optional_quantity("runnable_ns")};
}

// Each phase of `phases` (an object keyed by phase name) read by `read`; a phase the summary lacks
// stays nullopt, and one of another name is not a phase of a run (the schema closes the set).
template <typename Figures>
void read_phases(std::optional<Fields> phases, Figures (*read)(Fields&),
                 PhaseFigures<Figures>& out) {
  for (std::size_t p = 0; phases && p < collectors::kPhases.size(); ++p) {
    if (auto phase = phases->optional_object(collectors::kPhases[p])) out[p] = read(*phase);
  }
}

template <typename Figures, typename Incarnation = IncarnationPhases<Figures>>
Incarnation read_incarnation(Fields& f, Figures (*read)(Fields&)) {
  Incarnation out;
  out.pid = static_cast<std::int64_t>(f.optional_count("pid").value_or(0));
  out.start_time_ticks = f.optional_decimal("start_time_ticks").value_or(0);
  read_phases(f.optional_object("phases"), read, out.phases);
  return out;
}

// Every incarnation of a collector's summary.
template <typename Figures>
std::vector<IncarnationPhases<Figures>> read_incarnations(Fields& collector,
                                                          Figures (*read)(Fields&)) {
  std::vector<IncarnationPhases<Figures>> out;
  for (Fields f : collector.optional_items("incarnations"))
    out.push_back(read_incarnation(f, read));
  return out;
}

std::vector<SyscallCall> read_calls(Fields& phase) {
  std::vector<SyscallCall> out;
  for (const std::string& name : phase.names()) {
    Fields c = phase.object(name);
    SyscallCall call{name,
                     static_cast<std::uint64_t>(c.optional_quantity("count").value_or(0)),
                     c.optional_count("errors").value_or(0),
                     c.optional_decimal("total_ns").value_or(0),
                     c.optional_decimal("max_ns").value_or(0),
                     {}};
    if (auto requests = c.optional_object("requests")) {
      for (const std::string& request : requests->names()) {
        Fields r = requests->object(request);
        call.requests.push_back({request, r.optional_count("count").value_or(0),
                                 r.optional_count("errors").value_or(0),
                                 r.optional_decimal("total_ns")});
      }
    }
    out.push_back(std::move(call));
  }
  return out;
}

SyscallSummary read_syscall(Fields& collector) {
  SyscallSummary out;
  out.thread_roles = collector.optional_text("thread_roles").value_or("");
  for (Fields f : collector.optional_items("incarnations")) {
    auto inc = read_incarnation<std::vector<SyscallCall>, SyscallIncarnation>(f, read_calls);
    read_phases(f.optional_object("bridge_writer_phases"), read_calls, inc.bridge_writer_phases);
    out.incarnations.push_back(std::move(inc));
  }
  return out;
}

CountedMeasure read_counted(Fields& m) {
  return {m.optional_quantity("instructions"), m.optional_quantity("allocations")};
}

void read_measure(Fields& f, Summary& s) {
  auto measure = f.optional_object("measure");
  if (!measure) return;
  s.operations = measure->optional_number("operations");
  s.vm_steps = measure->optional_number("vm_steps");
  if (auto own = measure->optional_object("counters")) {
    for (const std::string& name : own->names()) {
      if (const auto value = own->optional_number(name)) s.own_counters.emplace_back(name, *value);
    }
  }
}

void read_collectors(Fields& f, Summary& s) {
  auto collectors = f.optional_object("collectors");
  if (!collectors) return;
  if (auto counted = collectors->optional_object("instructions")) {
    s.counted = CountedTotals{counted->optional_text("source").value_or(""),
                              counted->optional_decimal("measure_instructions"),
                              counted->optional_decimal("measure_allocations"),
                              read_incarnations(*counted, read_counted)};
  }
  if (auto cpu = collectors->optional_object("cpu")) s.cpu = read_incarnations(*cpu, read_cpu);
  if (auto syscall = collectors->optional_object("syscall")) s.syscall = read_syscall(*syscall);
  if (auto gc = collectors->optional_object("gc")) {
    for (Fields cell : gc->optional_items("cells")) {
      s.gc_cells.push_back({cell.optional_text("phase").value_or(""),
                            cell.optional_quantity("collections").value_or(0),
                            cell.optional_quantity("pause_total_ns").value_or(0)});
    }
  }
  if (auto counters = collectors->optional_object("counters")) {
    for (Fields cell : counters->optional_items("cells")) {
      s.counter_cells.push_back(
          {cell.text("phase"), cell.text("name"), cell.optional_number("sum").value_or(0)});
    }
  }
}

}  // namespace

Result<Summary> read_summary(const nlohmann::json& doc, const std::string& file, FieldLog* log) {
  Fields f(doc, file, log);
  Summary s;
  s.throughput_ops_per_s = f.optional_number("throughput_ops_per_s");
  if (auto latency = f.optional_object("latency")) {
    if (auto all = latency->optional_object("all_operations")) {
      s.p50_ns = all->optional_decimal("p50_ns");
      s.p99_ns = all->optional_decimal("p99_ns");
    }
  }
  if (auto workers = f.optional_object("workers")) {
    s.workers = workers->optional_count("count");
    s.starved = workers->optional_count("starved");
    s.jain_fairness_index = workers->optional_number("jain_fairness_index");
  }
  read_measure(f, s);
  read_collectors(f, s);
  if (!f.ok()) return f.error();
  return s;
}

}  // namespace jbench::model
