#include "jbench/cli/cli.h"

#include <fmt/format.h>

#include <cstdio>
#include <exception>
#include <iostream>

#include "commands.h"
#include "unknown_words.h"

namespace jbench {

int run_cli(int argc, char** argv) {
  CLI::App app{
      "jbench: a benchmark harness whose measurements are attributable, validated and "
      "reproducible.",
      "jbench"};
  app.set_version_flag("--version", JBENCH_VERSION);
  app.require_subcommand(1);
  app.footer(
      "Exit codes: 0 success, 1 the checked thing failed, 2 bad usage or input, "
      "3 internal error.\nSee docs/cli.md.");

  std::vector<std::pair<CLI::App*, cli::Action>> actions;
  auto* plan = app.add_subcommand("plan", "expand a matrix into the ordered, seeded runs it means");
  actions.emplace_back(plan, cli::add_plan_command(*plan));
  auto* run = app.add_subcommand("run", "execute a matrix's runs and leave a validated bundle");
  actions.emplace_back(run, cli::add_run_command(*run));
  auto* validate =
      app.add_subcommand("validate", "check a bundle: checksums, schemas, attribution, summaries");
  actions.emplace_back(validate, cli::add_validate_command(*validate));
  auto* archive =
      app.add_subcommand("archive", "write a bundle as one file that `jbench validate` checks");
  actions.emplace_back(archive, cli::add_archive_command(*archive));
  auto* doctor =
      app.add_subcommand("doctor", "what tracing this host can do, and for what it cannot, why");
  actions.emplace_back(doctor, cli::add_doctor_command(*doctor));
  auto* probes = app.add_subcommand(
      "probes", "list a binary's USDT probes and check them against the bridge's ABI contract");
  actions.emplace_back(probes, cli::add_probes_command(*probes));
  auto* report =
      app.add_subcommand("report", "where each cell's time went, beside what each trace mode cost");
  actions.emplace_back(report, cli::add_report_command(*report));
  auto* exporter = app.add_subcommand(
      "export",
      "a bundle's timelines for a viewer: Chrome trace JSON (Perfetto), folded stacks; "
      "or its raw records as text (jsonl)");
  actions.emplace_back(exporter, cli::add_export_command(*exporter));
  auto* oracle = app.add_subcommand(
      "oracle", "the correctness pass: corpus, generator, ledgers under kill storms, I/O faults");
  actions.emplace_back(oracle, cli::add_oracle_command(*oracle));
  auto* compare = app.add_subcommand(
      "compare", "two bundles cell by cell: regressed, improved, same, or not enough evidence");
  actions.emplace_back(compare, cli::add_compare_command(*compare));
  auto* history =
      app.add_subcommand("history", "a folder of nightly bundles: series per cell, change points");
  actions.emplace_back(history, cli::add_history_command(*history));
  auto* propose = app.add_subcommand(
      "propose", "an optimization's evidence: oracle gate, interleaved sessions, declared rule");
  actions.emplace_back(propose, cli::add_propose_command(*propose));
  auto* merge = app.add_subcommand(
      "merge", "join the shard bundles of one plan (run --shard K/N) into one validated bundle");
  actions.emplace_back(merge, cli::add_merge_command(*merge));
  auto* slurm = app.add_subcommand(
      "slurm", "a matrix as a Slurm job array of shards and a dependent merge, submitted or not");
  actions.emplace_back(slurm, cli::add_slurm_command(*slurm));
  auto* k8s = app.add_subcommand(
      "k8s", "a matrix as a Kubernetes Indexed Job of shards and a merge Job, as a manifest");
  actions.emplace_back(k8s, cli::add_k8s_command(*k8s));

  // CLI11 would print help for `jbench rnu --help`, and exit 0: a misspelt word is an error first.
  if (const std::string unknown =
          cli::unknown_words(app, std::vector<std::string>(argv + 1, argv + argc));
      !unknown.empty()) {
    std::cerr << fmt::format(
        "jbench: error: {}\nRun 'jbench --help' or 'jbench <command> --help'.\n", unknown);
    return kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::cerr << fmt::format(
        "jbench: error: {}\nRun 'jbench --help' or 'jbench <command> --help'.\n", e.what());
    return kExitUsage;
  }
  try {
    for (auto& [sub, action] : actions) {
      if (sub->parsed()) return action();
    }
  } catch (const std::exception& e) {
    std::cerr << fmt::format("jbench: internal error: {}\n", e.what());
    return kExitInternal;
  }
  return kExitInternal;
}

}  // namespace jbench
