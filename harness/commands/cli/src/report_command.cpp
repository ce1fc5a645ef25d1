// `jbench report BUNDLE [--json] [--html FILE] [--allow-invalid] [--overhead-only]`: where the
// measure phase's time went, cell by cell, with the observer's own cost beside it
// (docs/attribution.md, docs/report.md). It reads the bundle only.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "commands.h"
#include "jbench/attribution/analysis.h"
#include "jbench/attribution/attribution_output.h"
#include "jbench/attribution/bundle_accounts.h"
#include "jbench/bundle/bundle_validity.h"
#include "jbench/cli/cli.h"
#include "jbench/common/table.h"
#include "jbench/common/text.h"
#include "jbench/html_pages/attribution_html.h"
#include "jbench/overhead_report/bundle_cells.h"
#include "jbench/overhead_report/bundle_runs.h"
#include "jbench/overhead_report/overhead.h"
#include "output_format.h"
#include "page_file.h"

namespace jbench::cli {
namespace {

struct ReportOptions {
  std::string bundle;
  OutputFormat output;
  std::string format;  // chosen_format(output)
  std::string html;
  bool allow_invalid = false;
  bool overhead_only = false;
  bool cells = false;
};

// Exit 1 for an invalid bundle the user did not allow, saying why.
int refuse_invalid(const ReportOptions& o, const std::vector<std::string>& reasons) {
  std::cerr << fmt::format(
      "jbench: error: {} is invalid ({}); `jbench validate {}` says why. "
      "--allow-invalid reports it anyway, marked invalid\n",
      o.bundle, fmt::join(reasons, "; "), o.bundle);
  return kExitCheckFailed;
}

// Whether to refuse the bundle as invalid: every reading judges it (bundle_runs.h), and an
// invalid bundle is refused before any error its reading met, since an edited bundle is often
// both and that it is invalid is what its user must hear. A directory without a manifest is no
// bundle: its reading error is the answer.
std::optional<int> refused(const ReportOptions& o, const BundleValidity& validity,
                           bool read_failed) {
  if (validity.valid || o.allow_invalid) return std::nullopt;
  if (read_failed && !has_manifest(o.bundle)) return std::nullopt;
  return refuse_invalid(o, validity.reasons);
}

int overhead_only(const ReportOptions& o) {
  const auto bundle =
      overhead_report::read_bundle_runs(o.bundle, overhead_report::Summaries::skipped);
  const BundleValidity& validity = bundle.judgement.get();
  if (const auto code = refused(o, validity, !bundle.read)) return *code;
  if (!bundle.read) {
    std::cerr << "jbench: error: " << bundle.read.error().message << '\n';
    return kExitUsage;
  }
  const overhead_report::BundleRuns& runs = *bundle.read;
  const auto overhead = overhead_report::compute_overhead(runs.runs);
  if (o.format == "json") {
    auto j = overhead_report::overhead_to_json(overhead);
    j["bundle_status"] = runs.manifest->status;
    j["bundle_valid"] = validity.valid;
    if (!validity.valid) j["invalid_because"] = validity.reasons;
    std::cout << j.dump(2) << '\n';
    return kExitOk;
  }
  std::string text;
  if (runs.manifest->status != "complete") {
    text = "note: the bundle's status is '" + runs.manifest->status +
           "': figures come from its successful runs only\n\n";
  }
  text += overhead_report::overhead_to_text(overhead);
  std::cout << (validity.valid ? text : mark_every_line(text, "[INVALID BUNDLE] "));
  return kExitOk;
}

// The bundle's cells table, as `jbench run` printed it; evidence only from a valid bundle.
int cells_table(const ReportOptions& o) {
  const auto cells = overhead_report::read_bundle_cells(o.bundle);
  const BundleValidity& validity = cells.validity;
  if (const auto code = refused(o, validity, !cells.lines)) return *code;
  if (!cells.lines) {
    std::cerr << "jbench: error: " << cells.lines.error().message << '\n';
    return kExitUsage;
  }
  if (o.format == "text") {
    if (!validity.valid) std::cout << "[INVALID BUNDLE] every figure below\n";
    std::cout << format_cell_table(*cells.lines);
    return kExitOk;
  }
  Table table = cell_table(*cells.lines);
  table.columns.emplace_back("bundle_valid");
  for (auto& row : table.rows) row.emplace_back(validity.valid ? "yes" : "no");
  std::cout << (o.format == "csv" ? to_csv(table) : to_markdown(table));
  return kExitOk;
}

int run_report(ReportOptions o) {
  const auto format = chosen_format(o.output);
  if (!format) return kExitUsage;
  o.format = *format;
  if (o.cells && (o.format == "json" || o.overhead_only)) {
    std::cerr << "jbench: error: --cells prints text, csv or markdown, alone\n";
    return kExitUsage;
  }
  if (o.overhead_only && (o.format == "csv" || o.format == "markdown")) {
    std::cerr << "jbench: error: --overhead-only prints text or JSON, not " << o.format << "\n";
    return kExitUsage;
  }
  if (is_oracle_bundle(o.bundle)) {
    std::cerr << "jbench: error: " << o.bundle
              << " is an oracle bundle (oracle.json): it holds correctness checks, not timings; "
                 "`jbench validate` checks it and its findings are in its oracle.json\n";
    return kExitUsage;
  }
  if (o.overhead_only) return overhead_only(o);
  if (o.cells) return cells_table(o);
  const auto bundle = attribution::read_bundle_accounts(o.bundle, {});
  if (const auto code = refused(o, bundle.validity, !bundle.accounts)) return *code;
  if (!bundle.accounts) {
    // A run's error names its file inside the bundle; the manifest's names the bundle already.
    const std::string& error = bundle.accounts.error().message;
    const bool named = error.find(o.bundle) != std::string::npos;
    std::cerr << "jbench: error: " << (named ? "" : o.bundle + "/") << error << '\n';
    return kExitUsage;
  }
  const auto analysis = attribution::analyse(*bundle.accounts, bundle.validity);
  const auto json = attribution::attribution_to_json(analysis);
  if (!o.html.empty()) {
    if (!write_page(o.html, html_pages::attribution_to_html(json), "report")) return kExitUsage;
  }
  if (o.format == "json") {
    std::cout << json.dump(2) << '\n';
  } else if (o.format == "csv") {
    std::cout << to_csv(attribution::overview_table(analysis));
  } else if (o.format == "markdown") {
    std::cout << to_markdown(attribution::overview_table(analysis));
  } else {
    std::cout << attribution::attribution_to_text(analysis);
  }
  return kExitOk;
}

}  // namespace

Action add_report_command(CLI::App& app) {
  auto o = std::make_shared<ReportOptions>();
  app.add_option("BUNDLE", o->bundle, "the bundle directory")->required();
  add_format_options(app, o->output, "print the report as JSON (schema jbench.attribution_report)",
                     "text (the whole report), json (as --json), or the overview alone, one row "
                     "per cell and traced mode: csv or markdown");
  app.add_option("--html", o->html, "also write the report as one self-contained HTML page");
  app.add_flag("--allow-invalid", o->allow_invalid,
               "report a bundle that failed validation; every line then says so");
  app.add_flag("--cells", o->cells,
               "only the cells table `jbench run` printed (throughput, latency, fairness per cell "
               "and mode), read back from the bundle; with --format csv or markdown");
  app.add_flag("--overhead-only", o->overhead_only,
               "only the observer-overhead table (schema jbench.overhead_report with --json)");
  app.footer(
      "Per cell and trace mode: the measure phase's time split into non-overlapping parts "
      "(traced calls by call, file and request; GC pauses; the rest), each with its 95% bootstrap "
      "interval over the repetitions and its cost per committed transaction; the dominant cost "
      "in one sentence with the observer's own cost and the smallest change the baseline noise "
      "lets one see; scaling along workers; startup per incarnation; the overhead table.\n"
      "Exit codes: 0 printed, 1 the bundle is invalid (see --allow-invalid), 2 the bundle cannot "
      "be read or the page cannot be written.");
  return [o] { return run_report(*o); };
}

}  // namespace jbench::cli
