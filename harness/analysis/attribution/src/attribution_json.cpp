#include <fmt/format.h>

#include "jbench/attribution/attribution_output.h"
#include "jbench/stats/decimal.h"

namespace jbench::attribution {
namespace {

using Json = nlohmann::json;

Json opt(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

Json values_json(const std::vector<std::pair<std::string, std::string>>& values) {
  Json j = Json::object();
  for (const auto& [k, v] : values) j[k] = v;
  return j;
}

Json part_json(const PartRow& p) {
  return {{"kind", p.kind},
          {"call", p.key.call},
          {"path", p.key.path},
          {"request", p.key.request},
          {"span", p.span},
          {"label", p.label},
          {"share", p.share.value},
          {"share_low", opt(p.share.low)},
          {"share_high", opt(p.share.high)},
          {"ns_per_op", p.ns_per_op.value},
          {"ns_per_op_low", opt(p.ns_per_op.low)},
          {"ns_per_op_high", opt(p.ns_per_op.high)},
          {"count_per_op", opt(p.count_per_op)},
          {"attributable", p.attributable},
          {"rank", p.rank ? Json(*p.rank) : Json(nullptr)}};
}

Json estimate_json(const Estimate& e, const char* name) {
  return {{name, e.value}, {"low", opt(e.low)}, {"high", opt(e.high)}};
}

Json cpu_samples_json(const std::optional<CpuSamples>& s) {
  if (!s) return nullptr;
  Json rows = Json::array();
  for (const auto& r : s->rows) {
    rows.push_back({{"span", r.span},
                    {"function", r.function},
                    {"share", r.share.value},
                    {"share_low", opt(r.share.low)},
                    {"share_high", opt(r.share.high)},
                    {"ns_per_op", opt(r.ns_per_op)}});
  }
  return {{"hz", s->hz}, {"samples_per_run", s->samples_per_run}, {"rows", rows}};
}

Json wait_for_json(const std::vector<WaitRow>& rows) {
  Json out = Json::array();
  for (const auto& w : rows) {
    out.push_back({{"worker", w.worker},
                   {"what", w.what},
                   {"woken_by", w.waker},
                   {"share", w.share.value},
                   {"share_low", opt(w.share.low)},
                   {"share_high", opt(w.share.high)},
                   {"ns_per_op", w.ns_per_op.value}});
  }
  return out;
}

Json other_syscalls_json(const std::vector<OtherSyscallRow>& rows) {
  Json out = Json::array();
  for (const auto& r : rows) {
    out.push_back({{"name", r.name},
                   {"calls_per_op", r.calls_per_op},
                   {"errors_per_op", r.errors_per_op},
                   {"ns_per_op", r.ns_per_op.value},
                   {"ns_per_op_low", opt(r.ns_per_op.low)},
                   {"ns_per_op_high", opt(r.ns_per_op.high)},
                   {"share", r.share.value},
                   {"share_low", opt(r.share.low)},
                   {"share_high", opt(r.share.high)}});
  }
  return out;
}

Json timeline_json(const std::optional<Timeline>& t) {
  if (!t) return nullptr;
  Json incarnations = Json::array();
  for (const auto& r : t->incarnations) {
    incarnations.push_back({{"worker", r.worker},
                            {"threads", r.threads},
                            {"blocked", r.blocked},
                            {"runnable", r.runnable},
                            {"in_calls", r.in_calls}});
  }
  return {{"run", t->run},
          {"window_ns", t->window_ns},
          {"bins", kTimelineBins},
          {"incarnations", incarnations}};
}

Json cell_json(const CellAttribution& c) {
  Json parts = Json::array();
  for (const auto& p : c.parts) parts.push_back(part_json(p));
  Json not_attributed = Json::array();
  for (const auto& n : c.not_attributed) {
    not_attributed.push_back(
        {{"part", n.part}, {"collector", n.collector}, {"status", n.status}, {"reason", n.reason}});
  }
  Json spans = Json::array();
  for (const auto& s : c.spans) {
    spans.push_back({{"name", s.name},
                     {"plan_class", s.plan_class},
                     {"count_per_op", s.count_per_op},
                     {"total_share", s.total_share},
                     {"self_share", s.self_share},
                     {"syscall_share", s.syscall_share},
                     {"gc_share", s.gc_share}});
  }
  return {
      {"cell", c.cell},
      {"values", values_json(c.values)},
      {"mode", c.mode},
      {"repetitions", c.repetitions},
      {"phase", c.phase},
      {"incarnations", c.incarnations},
      {"threads_per_incarnation", c.threads},
      {"wall_ns_per_run", stats::to_decimal(static_cast<std::uint64_t>(c.wall_ns_per_run))},
      {"operations_per_run", c.operations_per_run},
      {"statements_per_run", c.statements_per_run},
      {"operation_unit", c.operation_unit},
      {"syscalls_attributed", c.syscalls_attributed},
      {"not_attributed", not_attributed},
      {"parts", parts},
      {"top", c.top_label ? Json{{"label", *c.top_label},
                                 {"stays_on_top", opt(c.top_stays_on_top)},
                                 {"resamples", kResamples}}
                          : Json(nullptr)},
      {"observer",
       {{"mode", c.observer.mode},
        {"median_ratio", opt(c.observer.median_ratio)},
        {"ci_low", opt(c.observer.ci_low)},
        {"ci_high", opt(c.observer.ci_high)},
        {"pairs", c.observer.pairs},
        {"observer_share", opt(c.observer.observer_share)},
        {"writer_thread_share", c.observer.writer_thread_share}}},
      {"cpu_share", opt(c.cpu_share)},
      {"scheduler", c.scheduler ? Json{{"on_cpu", estimate_json(c.scheduler->on_cpu, "share")},
                                       {"runnable", estimate_json(c.scheduler->runnable, "share")},
                                       {"blocked", estimate_json(c.scheduler->blocked, "share")}}
                                : Json(nullptr)},
      {"protocol_wait_share", opt(c.protocol_wait_share)},
      {"min_detectable_effect",
       {{"fraction_of_wall", opt(c.detectable.fraction_of_wall)},
        {"baseline_runs", c.detectable.baseline_runs},
        {"baseline_cv", opt(c.detectable.baseline_cv)}}},
      {"mode_agreement", c.other_mode ? Json{{"other_mode", *c.other_mode},
                                             {"agrees", *c.modes_agree},
                                             {"note", c.agreement_note}}
                                      : Json(nullptr)},
      {"sentence", c.sentence},
      {"spans", spans},
      {"wait_for", wait_for_json(c.wait_for)},
      {"cpu_samples", cpu_samples_json(c.cpu_samples)},
      {"other_syscalls", other_syscalls_json(c.other_syscalls)},
      {"timeline", timeline_json(c.timeline)},
      {"notes", c.notes}};
}

// What a reader must know before any figure: the bundle is invalid, or incomplete.
std::string bundle_note(const AttributionReport& r) {
  std::string note;
  if (!r.valid) note = fmt::format("INVALID BUNDLE: {}", fmt::join(r.invalid_because, "; "));
  if (r.bundle_status != "complete") {
    note += fmt::format("{}the bundle's status is '{}': figures come from its successful runs only",
                        note.empty() ? "" : ". ", r.bundle_status);
  }
  return note;
}

Json overview_json(const std::vector<OverviewRow>& rows) {
  Json out = Json::array();
  for (const OverviewRow& o : rows) {
    out.push_back(
        {{"cell", o.cell},
         {"mode", o.mode},
         {"repetitions", o.repetitions},
         {"largest", o.largest.empty() ? Json(nullptr) : Json(o.largest)},
         {"largest_share", o.largest.empty() ? Json(nullptr) : Json(o.largest_share.value)},
         {"largest_share_low", opt(o.largest_share.low)},
         {"largest_share_high", opt(o.largest_share.high)},
         {"rest_share", o.rest_share.value},
         {"rest_share_low", opt(o.rest_share.low)},
         {"rest_share_high", opt(o.rest_share.high)},
         {"rest_over_limit", o.rest_over_limit},
         {"cost_ratio", o.cost ? Json(o.cost->value) : Json(nullptr)},
         {"cost_ratio_low", o.cost ? opt(o.cost->low) : Json(nullptr)},
         {"cost_ratio_high", o.cost ? opt(o.cost->high) : Json(nullptr)}});
  }
  return out;
}

Json scaling_json(const ScalingGroup& g) {
  Json points = Json::array();
  for (const auto& p : g.points) {
    Json j = estimate_json(p.throughput, "throughput");
    j["workers"] = p.workers;
    j["runs"] = p.runs;
    j["efficiency"] = p.efficiency ? Json(p.efficiency->value) : Json(nullptr);
    j["efficiency_low"] = p.efficiency ? opt(p.efficiency->low) : Json(nullptr);
    j["efficiency_high"] = p.efficiency ? opt(p.efficiency->high) : Json(nullptr);
    points.push_back(j);
  }
  Json growing = Json::array();
  for (const auto& c : g.growing) {
    growing.push_back({{"label", c.label},
                       {"ns_per_op_first", c.ns_per_op_first},
                       {"ns_per_op_last", c.ns_per_op_last},
                       {"growth", c.growth}});
  }
  return {{"cell", g.group},          {"axis", "workers"},        {"points", points},
          {"cost_mode", g.cost_mode}, {"growing_costs", growing}, {"sentence", g.sentence}};
}

Json startup_json(const StartupTable& t) {
  Json steps = Json::array();
  for (const auto& [step, ns] : t.steps) {
    steps.push_back({{"step", step}, {"ns", stats::to_decimal(ns)}});
  }
  Json calls = Json::array();
  for (const auto& c : t.calls) {
    calls.push_back({{"t_ns", stats::to_decimal(c.t_ns)},
                     {"call", c.call},
                     {"fd", c.fd},
                     {"path", c.path},
                     {"request", c.request},
                     {"duration_ns", stats::to_decimal(c.duration_ns)},
                     {"count", c.count},
                     {"belongs_to", c.belongs_to}});
  }
  return {{"run", t.run},
          {"worker", t.worker},
          {"pid", t.pid},
          {"startup_ns", stats::to_decimal(t.startup_ns)},
          {"steps", steps},
          {"calls", calls},
          {"calls_cut", t.calls_cut}};
}

Json incarnation_json(const IncarnationRow& inc) {
  Json phases = Json::array();
  for (const auto& p : inc.phases) {
    Json top = Json::array();
    for (const auto& [label, ns] : p.top_calls) {
      top.push_back({{"label", label}, {"ns", stats::to_decimal(ns)}});
    }
    phases.push_back({{"phase", p.phase},
                      {"wall_ns", stats::to_decimal(p.wall_ns)},
                      {"threads", p.threads},
                      {"syscall_ns", stats::to_decimal(p.syscall_ns)},
                      {"gc_ns", stats::to_decimal(p.gc_ns)},
                      {"span_ns", stats::to_decimal(p.span_ns)},
                      {"rest_ns", stats::to_decimal(p.rest_ns)},
                      {"writer_ns", stats::to_decimal(p.writer_ns)},
                      {"clamped_ns", stats::to_decimal(p.clamped_ns)},
                      {"protocol_ns", stats::to_decimal(p.protocol_ns)},
                      {"cpu_ns", p.cpu_ns ? Json(stats::to_decimal(*p.cpu_ns)) : Json(nullptr)},
                      {"operations", p.operations},
                      {"top_calls", top}});
  }
  return {{"run", inc.run},
          {"mode", inc.mode},
          {"worker", inc.worker},
          {"pid", inc.pid},
          {"phases", phases}};
}

}  // namespace

Json attribution_to_json(const AttributionReport& r) {
  Json cells = Json::array();
  for (const auto& c : r.cells) cells.push_back(cell_json(c));
  Json scaling = Json::array();
  for (const auto& g : r.scaling) scaling.push_back(scaling_json(g));
  Json startup = Json::array();
  for (const auto& t : r.startup) startup.push_back(startup_json(t));
  Json incarnations = Json::array();
  for (const auto& inc : r.incarnations) incarnations.push_back(incarnation_json(inc));
  return {{"schema", "jbench.attribution_report"},
          {"schema_version", 1},
          {"bundle", r.bundle},
          {"bundle_status", r.bundle_status},
          {"bundle_valid", r.valid},
          {"bundle_note", bundle_note(r)},
          {"overview", overview_json(r.overview)},
          {"cells", cells},
          {"scaling", scaling},
          {"startup", startup},
          {"incarnations", incarnations},
          {"overhead", overhead_report::overhead_to_json(r.overhead)},
          {"counted", overhead_report::counted_to_json(r.counted)},
          {"project_counters", overhead_report::project_counters_to_json(r.project_counters)},
          {"syscall_records", r.syscall_records},
          {"warnings", r.warnings}};
}

}  // namespace jbench::attribution
