// `jbench compare BASE CANDIDATE [--json] [--html FILE] [--fdr Q] [--threshold X]
// [--counted-threshold X] [--thresholds-from AA.json ...] [--pair-by-time]
// [--allow-different-build] [--allow-different-settings]`: is the candidate faster, slower, the
// same — or is there not enough evidence (docs/compare.md).
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "archive_input.h"
#include "commands.h"
#include "jbench/bundle/json_file.h"
#include "jbench/cli/cli.h"
#include "jbench/common/table.h"
#include "jbench/compare/aa_thresholds.h"
#include "jbench/compare/compare.h"
#include "jbench/html_pages/compare_html.h"
#include "output_format.h"
#include "page_file.h"

namespace jbench::cli {
namespace {

struct CompareCommandOptions {
  std::string base, candidate;
  OutputFormat output;
  std::string html;
  std::vector<std::string> aa_reports;  // --thresholds-from
  compare::CompareOptions options;
};

// The smallest threshold an A/A report can give a metric: a count that never strayed still has
// its rounding (docs/compare.md, "Thresholds from A/A noise").
constexpr double kAaFloor = 0.001;

// Each metric's threshold from the A/A reports, or false with every problem printed.
bool read_aa_thresholds(const std::vector<std::string>& files, compare::CompareOptions& options) {
  std::vector<std::pair<std::string, nlohmann::json>> reports;
  bool ok = true;
  for (const std::string& file : files) {
    auto doc = read_json_object(file);
    if (!doc) {
      std::cerr << "jbench: error: --thresholds-from: " << doc.error().message << '\n';
      ok = false;
      continue;
    }
    reports.emplace_back(file, std::move(*doc));
  }
  const compare::AaThresholds aa = compare::thresholds_from_aa(reports, kAaFloor);
  for (const std::string& problem : aa.problems) std::cerr << "jbench: error: " << problem << '\n';
  if (ok && aa.problems.empty() && aa.thresholds.empty()) {
    std::cerr << "jbench: error: --thresholds-from: no row of these reports has an interval\n";
    ok = false;
  }
  options.metric_thresholds = aa.thresholds;
  return ok && aa.problems.empty();
}

// A side given as a file is an archive: read from its safely extracted copy, named by the file.
// A refused archive is not evidence: the comparison gives no verdict and says why.
compare::CompareSide read_side(const std::string& path, std::optional<ArchiveInput>& archive) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return compare::read_compare_side(path);
  archive.emplace(path);
  compare::CompareSide side;
  if (!archive->bundle_dir().empty()) side = compare::read_compare_side(archive->bundle_dir());
  side.dir = path;
  if (!archive->error().empty()) {
    side.unreadable = archive->error();
  } else if (!archive->findings().empty()) {
    const auto& f = archive->findings().front();
    side.unreadable = "the archive is refused (" + std::to_string(archive->findings().size()) +
                      " findings, see jbench validate): " + f.code + " " + f.entry + ": " +
                      f.message;
  }
  return side;
}

int run_compare(const CompareCommandOptions& o) {
  const auto format = chosen_format(o.output);
  if (!format) return kExitUsage;
  compare::CompareOptions options = o.options;
  if (!o.aa_reports.empty() && !read_aa_thresholds(o.aa_reports, options)) return kExitUsage;
  std::optional<ArchiveInput> base_archive, candidate_archive;
  compare::Comparison c = compare::compare_bundles(
      read_side(o.base, base_archive), read_side(o.candidate, candidate_archive), options);
  const nlohmann::json report = compare::comparison_to_json(c);
  if (!o.html.empty() &&
      !write_page(o.html, html_pages::comparison_to_html(report), "compare page")) {
    return kExitInternal;
  }
  if (*format == "json") {
    std::cout << report.dump(2) << '\n';
  } else if (*format == "csv" || *format == "markdown") {
    const Table table = compare::comparison_table(c);
    std::cout << (*format == "csv" ? to_csv(table) : to_markdown(table));
    std::cerr << "jbench compare: " << c.summary << '\n';  // the verdict, beside the rows
  } else {
    std::cout << compare::comparison_to_text(c);
  }
  return compare::exit_code_of(c.outcome);
}

}  // namespace

Action add_compare_command(CLI::App& app) {
  auto o = std::make_shared<CompareCommandOptions>();
  app.add_option("BASE", o->base,
                 "the bundle compared against (a directory, or its archive from jbench archive)")
      ->required();
  app.add_option("CANDIDATE", o->candidate, "the bundle compared (a directory or an archive)")
      ->required();
  add_format_options(app, o->output, "print the jbench.compare_report document",
                     "text, json (as --json), or one row per cell and metric: csv or markdown "
                     "(the verdict's sentence then goes to stderr)");
  app.add_option("--html", o->html,
                 "also write the comparison as one self-contained HTML page (stdout unchanged)");
  app.add_option("--fdr", o->options.fdr, "the false discovery rate across all cells × metrics")
      ->default_val(o->options.fdr)
      ->check(CLI::Range(1e-6, 0.5));
  app.add_option("--threshold", o->options.threshold,
                 "a relative change smaller than this is 'the same'")
      ->default_val(o->options.threshold)
      ->check(CLI::Range(1e-4, 0.5));
  app.add_option("--counted-threshold", o->options.counted_threshold,
                 "the same for counted metrics (instructions_per_op, allocations_per_op), compared "
                 "run by run of one seed")
      ->default_val(o->options.counted_threshold)
      ->check(CLI::Range(1e-5, 0.5));
  app.add_option("--thresholds-from", o->aa_reports,
                 "give each metric its own threshold, its measured A/A noise: the farthest any of "
                 "its intervals strayed from 1 in these A/A reports (jbench compare --json of one "
                 "build against itself); repeatable")
      ->check(CLI::ExistingFile);
  app.add_flag("--pair-by-time", o->options.pair_by_time,
               "a duet: the sides ran at once (docs/compare.md); compare each base run with the "
               "candidate run that measured beside it");
  app.add_flag("--allow-different-build", o->options.allow_different_build,
               "compare bundles whose workload binaries differ (a proposal); their provenance "
               "diff is printed");
  app.add_flag("--allow-different-settings", o->options.allow_different_settings,
               "compare bundles whose workload parameters differ (two settings of a workload); "
               "the differences are printed");
  app.footer(
      "Per cell and metric: the ratio of medians with a bootstrap interval, the Mann-Whitney "
      "test, Benjamini-Hochberg across the matrix, and a verdict: regressed, improved, same or "
      "unknown (not enough evidence, with the repetitions that would settle it). See "
      "docs/compare.md.\nExit codes: 0 no regression among the measured cells, 1 a regression, "
      "2 bad usage or bundles that cannot be compared (the differing keys named), 3 the --html "
      "page cannot be written, 4 no verdict: nothing comparable was measured (no common cell, "
      "every cell unknown, or a bundle invalid).");
  return [o] { return run_compare(*o); };
}

}  // namespace jbench::cli
