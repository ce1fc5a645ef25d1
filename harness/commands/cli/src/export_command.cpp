// `jbench export BUNDLE --format chrome-json|folded|folded-on-cpu|folded-off-cpu|jsonl [--run ID]
// [--out FILE] [--max-events N] [--allow-invalid]`: a bundle's timelines for a viewer
// (docs/export.md).
#include <iostream>
#include <memory>

#include "commands.h"
#include "jbench/bundle/bundle_validity.h"
#include "jbench/cli/cli.h"
#include "jbench/export/export.h"

namespace jbench::cli {
namespace {

struct ExportCommandOptions {
  exports::ExportOptions options;
  std::string run;
  std::string format;
};

int run_export(ExportCommandOptions o) {
  if (is_oracle_bundle(o.options.bundle)) {
    std::cerr << "jbench: error: " << o.options.bundle
              << " is an oracle bundle (oracle.json): it holds correctness checks, not timings; "
                 "`jbench validate` checks it and its findings are in its oracle.json\n";
    return kExitUsage;
  }
  if (!o.run.empty()) o.options.run = o.run;
  o.options.format = o.format == "folded"           ? exports::ExportFormat::folded
                     : o.format == "folded-on-cpu"  ? exports::ExportFormat::folded_on_cpu
                     : o.format == "folded-off-cpu" ? exports::ExportFormat::folded_off_cpu
                     : o.format == "jsonl"          ? exports::ExportFormat::jsonl
                                                    : exports::ExportFormat::chrome_json;
  const auto outcome = exports::export_bundle(o.options, std::cout);
  for (const auto& note : outcome.notes) std::cerr << "jbench: " << note << '\n';
  switch (outcome.failure) {
    case exports::ExportFailure::none:
      return kExitOk;
    case exports::ExportFailure::invalid_bundle:
      std::cerr << "jbench: error: " << outcome.message << '\n';
      return kExitCheckFailed;
    case exports::ExportFailure::bad_input:
      std::cerr << "jbench: error: " << outcome.message << '\n';
      return kExitUsage;
  }
  return kExitInternal;
}

}  // namespace

Action add_export_command(CLI::App& app) {
  auto o = std::make_shared<ExportCommandOptions>();
  app.add_option("BUNDLE", o->options.bundle, "the bundle directory")->required();
  app.add_option("--format", o->format,
                 "chrome-json (Perfetto UI, speedscope); for flamegraph.pl and speedscope, "
                 "folded (span self time, ns), folded-on-cpu (on-CPU samples by span and user "
                 "stack, a count) or folded-off-cpu (time off the CPU by span, reason and waker, "
                 "ns); or jsonl (the raw records as text, compressed files read as written)")
      ->required()
      ->check(CLI::IsMember({"chrome-json", "folded", "folded-on-cpu", "folded-off-cpu", "jsonl"}));
  app.add_option("--run", o->run,
                 "export this run only (default: every run with spans or calls; jsonl: every "
                 "run that ran)");
  app.add_option("--out", o->options.out,
                 "the file to write, atomically (default: the standard output)");
  app.add_option("--max-events", o->options.max_events,
                 "chrome-json: write at most N trace events, cutting in time order")
      ->default_val(o->options.max_events)
      ->check(CLI::PositiveNumber);
  app.add_flag("--allow-invalid", o->options.allow_invalid,
               "export a bundle that is invalid; the output says so");
  app.footer(
      "Reads the bundle's raw files only; never re-runs anything. See docs/export.md.\nExit "
      "codes: 0 written, 1 the bundle is invalid (nothing written; see --allow-invalid), 2 bad "
      "usage, an unknown run, an unreadable bundle or a malformed raw line (file:line named).");
  return [o] { return run_export(*o); };
}

}  // namespace jbench::cli
