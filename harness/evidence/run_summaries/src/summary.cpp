#include "jbench/run_summaries/summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "jbench/run_summaries/fairness.h"
#include "jbench/stats/decimal.h"
#include "jbench/stats/histogram.h"
#include "jbench/stats/histogram_json.h"
#include "jbench/stats/median.h"

namespace jbench {
namespace {

using Json = nlohmann::json;

std::uint64_t u64(const Json& v) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (v.is_number_integer())
    return static_cast<std::uint64_t>(std::max<std::int64_t>(0, v.get<std::int64_t>()));
  if (v.is_string()) return stats::parse_decimal_u64(v.get_ref<const std::string&>()).value_or(0);
  return 0;
}

void add_counts(Json& into, const Json& from) {
  if (!from.is_object()) return;
  for (const auto& [key, value] : from.items()) {
    if (value.is_object()) {
      if (!into.contains(key)) into[key] = Json::object();
      add_counts(into[key], value);
    } else if (value.is_number()) {
      into[key] = (into.contains(key) ? u64(into[key]) : 0) + u64(value);
    }
  }
}

Json histogram_summary(const stats::LatencyHistogram& h) {
  const auto q = [&](std::uint32_t ppm) -> Json {
    auto v = h.quantile_ns(ppm);
    return v ? Json(std::to_string(*v)) : Json(nullptr);
  };
  return {{"count", h.count()},
          {"p50_ns", q(500'000)},
          {"p90_ns", q(900'000)},
          {"p99_ns", q(990'000)},
          {"max_ns", h.max_ns() ? Json(std::to_string(*h.max_ns())) : Json(nullptr)},
          {"histogram", stats::histogram_to_json(h)}};
}

// Of a list the callers have checked is not empty.
double median(const std::vector<double>& v) { return stats::median(v).value_or(0); }

std::string latency_text(const std::vector<double>& v) {
  if (v.empty()) return "-";
  const double ns = median(v);
  if (ns >= 1e6) return fmt::format("{:.2f} ms", ns / 1e6);
  return fmt::format("{:.1f} us", ns / 1e3);
}

}  // namespace

Json summarize_run(const std::vector<Json>& results, const Json& run_doc) {
  return summarize(results, run_doc).document;
}

void CellLine::add_run(bool ok_run, const RunFigures& f) {
  ++runs;
  if (!ok_run) return;
  ++ok;
  if (f.jain_fairness_index) fairness.push_back(*f.jain_fairness_index);
  worker_runs += f.workers;
  starved_worker_runs += f.starved;
  throughput.push_back(f.throughput_ops_per_s);
  if (f.p50_ns) p50_ns.push_back(static_cast<double>(*f.p50_ns));
  if (f.p99_ns) p99_ns.push_back(static_cast<double>(*f.p99_ns));
}

RunSummary summarize(const std::vector<Json>& results, const Json& run_doc) {
  Json counts = Json::object();
  std::map<std::string, stats::LatencyHistogram> latency;
  stats::LatencyHistogram all_ops;
  double throughput = 0;
  std::uint64_t measure_user_ns = 0;
  std::uint64_t measure_system_ns = 0;
  Json problems = Json::array();
  for (const auto& r : results) {
    // The measure phase's counters, which the worker reports at the top level of its result.
    for (const char* key :
         {"operations", "operations_by_type", "reads", "writes", "rows_returned", "transactions",
          "read_transactions", "write_transactions", "transactions_straddled",
          "transactions_failed", "transactions_abandoned", "straddled", "retries", "errors",
          "vm_steps", "counters"}) {
      if (r.contains(key)) add_counts(counts, Json{{key, r[key]}});
    }
    if (r.contains("throughput_ops_per_s") && r["throughput_ops_per_s"].is_number()) {
      throughput += r["throughput_ops_per_s"].get<double>();
    }
    if (r.contains("rusage")) {
      measure_user_ns += u64(r["rusage"].value("user_ns", Json(0)));
      measure_system_ns += u64(r["rusage"].value("system_ns", Json(0)));
    }
    if (!r.contains("latency_ns") || !r["latency_ns"].is_object()) continue;
    for (const auto& [op, doc] : r["latency_ns"].items()) {
      auto parsed = stats::histogram_from_json(doc);
      if (!parsed) {
        problems.push_back(fmt::format("worker {} latency_ns.{}: {}", r.value("worker_index", 0),
                                       op, parsed.error().message));
        continue;
      }
      latency[op].merge(*parsed);
      if (op != "transaction") all_ops.merge(*parsed);
    }
  }
  Json by_op = Json::object();
  for (const auto& [op, h] : latency) by_op[op] = histogram_summary(h);

  std::uint64_t kernel_user_ns = 0;
  std::uint64_t kernel_system_ns = 0;
  if (run_doc.contains("workers")) {
    for (const auto& w : run_doc["workers"]) {
      // run.json may come from an edited bundle (the validator recomputes from it): only an
      // exit record that is an object is read; the run schema reports any other.
      if (!w.is_object() || !w.contains("exit") || !w["exit"].is_object()) continue;
      kernel_user_ns += u64(w["exit"].value("user_ns", Json(0)));
      kernel_system_ns += u64(w["exit"].value("system_ns", Json(0)));
    }
  }
  WorkerFairness fairness = fairness_of(results);
  Json document = {
      {"schema", "jbench.summary"},
      {"schema_version", 1},
      {"workers_reporting", results.size()},
      {"measure", counts},
      {"throughput_ops_per_s", throughput},
      {"workers", std::move(fairness.document)},
      {"latency", {{"all_operations", histogram_summary(all_ops)}, {"by_type", by_op}}},
      {"cpu",
       {{"measure_phase_user_ns", std::to_string(measure_user_ns)},
        {"measure_phase_system_ns", std::to_string(measure_system_ns)},
        {"process_lifetime_user_ns", std::to_string(kernel_user_ns)},
        {"process_lifetime_system_ns", std::to_string(kernel_system_ns)},
        {"source",
         "measure_phase_*: each worker's getrusage at its phase boundaries; "
         "process_lifetime_*: the kernel's wait4 rusage of each worker"}}},
      {"problems", problems}};
  // One reading, the run's and a report's. The document was made just above, every field of the
  // type it reads: it cannot fail to read.
  const auto read = model::read_summary(document, "summary.json");
  const RunFigures figures = read ? figures_of(*read) : RunFigures{};
  return {std::move(document), figures};
}

RunFigures figures_of(const model::Summary& s) {
  RunFigures f;
  f.throughput_ops_per_s = s.throughput_ops_per_s.value_or(0);
  f.p50_ns = s.p50_ns;
  f.p99_ns = s.p99_ns;
  f.jain_fairness_index = s.jain_fairness_index;
  f.workers = static_cast<std::size_t>(s.workers.value_or(0));
  f.starved = static_cast<std::size_t>(s.starved.value_or(0));
  return f;
}

namespace {

// point -> its baseline's median ops/s
std::map<std::string, double> baseline_medians(const std::vector<CellLine>& lines) {
  std::map<std::string, double> baseline;
  for (const auto& l : lines) {
    if (l.baseline && !l.throughput.empty()) baseline[l.point] = median(l.throughput);
  }
  return baseline;
}

// A traced line's point's baseline median throughput over its own; unset without either.
std::optional<double> vs_baseline(const CellLine& l,
                                  const std::map<std::string, double>& baseline) {
  const auto base = baseline.find(l.point);
  if (l.baseline || base == baseline.end() || l.throughput.empty() || median(l.throughput) <= 0)
    return std::nullopt;
  return base->second / median(l.throughput);
}

}  // namespace

Table cell_table(const std::vector<CellLine>& lines) {
  const auto baseline = baseline_medians(lines);
  Table t;
  t.columns = {"cell",
               "ok_runs",
               "runs",
               "throughput_median_ops_per_s",
               "throughput_min_ops_per_s",
               "throughput_max_ops_per_s",
               "vs_baseline_ratio",
               "p50_ns",
               "p99_ns",
               "jain_fairness",
               "starved_workers",
               "worker_runs"};
  const auto med = [](const std::vector<double>& v, const char* format) {
    return v.empty() ? std::string() : fmt::format(fmt::runtime(format), median(v));
  };
  for (const auto& l : lines) {
    std::string lo, hi;
    if (!l.throughput.empty()) {
      const auto [a, b] = std::minmax_element(l.throughput.begin(), l.throughput.end());
      lo = fmt::format("{:.1f}", *a);
      hi = fmt::format("{:.1f}", *b);
    }
    const auto ratio = vs_baseline(l, baseline);
    if (l.counted) lo = hi = "";  // the counting runtime's times (CellLine::counted)
    const auto timed = [&l, &med](const std::vector<double>& v, const char* format) {
      return l.counted ? std::string() : med(v, format);
    };
    t.rows.push_back({l.cell, std::to_string(l.ok), std::to_string(l.runs),
                      timed(l.throughput, "{:.1f}"), lo, hi,
                      ratio ? fmt::format("{:.4f}", *ratio) : "", timed(l.p50_ns, "{:.0f}"),
                      timed(l.p99_ns, "{:.0f}"), med(l.fairness, "{:.4f}"),
                      std::to_string(l.starved_worker_runs), std::to_string(l.worker_runs)});
  }
  return t;
}

std::string format_cell_table(const std::vector<CellLine>& lines) {
  constexpr const char* kRow = "{:<42} {:>5} {:>12} {:>22} {:>8} {:>10} {:>10} {:>6} {:>8}\n";
  const auto baseline = baseline_medians(lines);
  std::string out = fmt::format(fmt::runtime(kRow), "cell", "ok", "ops/s (med)",
                                "spread (min..max)", "vs base", "p50", "p99", "fair", "starved");
  bool counted = false;
  for (const auto& l : lines) {
    const auto ratio = vs_baseline(l, baseline);
    const std::string vs_base = ratio ? fmt::format("x{:.2f}", *ratio) : "-";
    const std::string ok = fmt::format("{}/{}", l.ok, l.runs);
    if (l.counted) {
      // Timed inside the counting runtime: only its cost against the baseline is shown.
      counted = true;
      out +=
          fmt::format(fmt::runtime(kRow), l.cell, ok, "counted", "-", vs_base, "-", "-", "-", "-");
      continue;
    }
    std::string spread = "-";
    if (!l.throughput.empty()) {
      const auto [lo, hi] = std::minmax_element(l.throughput.begin(), l.throughput.end());
      spread = fmt::format("{:.0f}..{:.0f}", *lo, *hi);
    }
    out += fmt::format(
        fmt::runtime(kRow), l.cell, ok,
        l.throughput.empty() ? std::string("-") : fmt::format("{:.0f}", median(l.throughput)),
        spread, vs_base, latency_text(l.p50_ns), latency_text(l.p99_ns),
        l.fairness.empty() ? std::string("-") : fmt::format("{:.2f}", median(l.fairness)),
        l.worker_runs == 0 ? std::string("-")
                           : fmt::format("{}/{}", l.starved_worker_runs, l.worker_runs));
  }
  if (counted) {
    out +=
        "counted: the workers ran inside a counting runtime; `vs base` is its slowdown, their "
        "instructions per operation are in `jbench report`\n";
  }
  return out;
}

}  // namespace jbench
