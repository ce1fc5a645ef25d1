#include <fmt/format.h>

#include "jbench/overhead_report/overhead.h"

namespace jbench::overhead_report {

std::string overhead_to_text(const OverheadReport& r) {
  std::string out =
      "Observer overhead: baseline throughput / traced throughput per paired run (1.00 = no "
      "cost)\nmedian over pairs, 95% bootstrap interval of the median; 'first' = pairs in "
      "which the traced run went first\n\n";
  out += fmt::format("{:<40} {:<12} {:>6} {:>8} {:>19} {:>6} {:>9}\n", "cell", "mode", "pairs",
                     "median", "95% interval", "first", "unpaired");
  for (const auto& row : r.rows) {
    const std::string med = row.median_ratio ? fmt::format("{:.3f}", *row.median_ratio) : "-";
    const std::string ci = row.ci_low ? fmt::format("{:.3f}..{:.3f}", *row.ci_low, *row.ci_high)
                                      : (row.pairs == 1 ? "one pair: none" : "-");
    out += fmt::format("{:<40} {:<12} {:>6} {:>8} {:>19} {:>6} {:>9}\n", row.cell, row.mode,
                       row.pairs, med, ci, row.mode_first, row.unpaired);
  }
  if (!r.warnings.empty()) {
    out += fmt::format("\n{} warning(s): effects smaller than the observer's own cost\n",
                       r.warnings.size());
    for (const auto& w : r.warnings) out += "  " + w + "\n";
  }
  return out;
}

nlohmann::json overhead_to_json(const OverheadReport& r) {
  nlohmann::json rows = nlohmann::json::array();
  const auto opt = [](const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
  };
  for (const auto& row : r.rows) {
    rows.push_back({{"cell", row.cell},
                    {"mode", row.mode},
                    {"pairs", row.pairs},
                    {"unpaired", row.unpaired},
                    {"mode_first", row.mode_first},
                    {"median_ratio", opt(row.median_ratio)},
                    {"ci95_low", opt(row.ci_low)},
                    {"ci95_high", opt(row.ci_high)}});
  }
  return {{"schema", "jbench.overhead_report"},
          {"schema_version", 1},
          {"ratio", "baseline throughput / traced throughput"},
          {"interval", "95% percentile bootstrap of the median"},
          {"bootstrap_resamples", r.bootstrap_resamples},
          {"rows", rows},
          {"warnings", r.warnings}};
}

}  // namespace jbench::overhead_report
