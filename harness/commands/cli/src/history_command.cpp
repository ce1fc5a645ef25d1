// `jbench history DIR [--json] [--html FILE] [--alpha A] [--min-segment N]`: a folder of nightly
// bundles as series per cell and metric, with their change points (docs/compare.md, "History").
#include <iostream>
#include <memory>

#include "commands.h"
#include "jbench/cli/cli.h"
#include "jbench/compare/history.h"
#include "jbench/html_pages/history_html.h"
#include "page_file.h"

namespace jbench::cli {
namespace {

struct HistoryOptions {
  std::string dir;
  bool json = false;
  std::string html;
  stats::ChangePointOptions options;
};

int run_history(const HistoryOptions& o) {
  compare::History h = compare::read_history(o.dir, o.options);
  const nlohmann::json doc = compare::history_to_json(h);
  if (!o.html.empty() && !write_page(o.html, html_pages::history_to_html(doc), "history page")) {
    return kExitInternal;
  }
  if (o.json) {
    std::cout << doc.dump(2) << '\n';
  } else {
    std::cout << compare::history_to_text(h);
  }
  return compare::exit_code_of(h.outcome);
}

}  // namespace

Action add_history_command(CLI::App& app) {
  auto o = std::make_shared<HistoryOptions>();
  app.add_option("DIR", o->dir, "a folder of bundles (one per night)")
      ->required()
      ->check(CLI::ExistingDirectory);
  app.add_flag("--json", o->json, "print the jbench.history document");
  app.add_option("--html", o->html,
                 "also write the history as one self-contained HTML page (stdout unchanged)");
  app.add_option("--alpha", o->options.alpha, "the rank test's level for a change point")
      ->default_val(o->options.alpha)
      ->check(CLI::Range(1e-9, 0.1));
  app.add_option("--min-segment", o->options.min_segment,
                 "the fewest bundles on each side of a change point")
      ->default_val(o->options.min_segment)
      ->check(CLI::Range(2, 1000));
  app.footer(
      "Each bundle's median per cell and metric, in the order the bundles started; invalid "
      "bundles and cells that measured nothing are gaps. Change points: E-divisive means with a "
      "rank-test significance. See docs/compare.md.\nExit codes: 0 no change for the worse, 1 a "
      "change for the worse, 2 bad usage, 3 the --html page cannot be written, 4 no verdict (no "
      "series long enough).");
  return [o] { return run_history(*o); };
}

}  // namespace jbench::cli
