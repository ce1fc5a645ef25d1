// One function per subcommand: each registers its options on the app and returns the action to
// run once parsing succeeded. Private to jbench::cli.
//
// `jbench` itself holds the commands a run and its first look need (plan, run, validate, report,
// ...); the others (compare, propose, merge, slurm, ...) are executables of their own beside it,
// `jbench-<name>`, which `jbench <name>` starts in its place. So the main job builds and links
// only what it runs, and every command still answers to `jbench <name>`.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <map>
#include <string>

namespace jbench::cli {

using Action = std::function<int()>;
using AddCommand = Action (*)(CLI::App&);

// The commands this executable holds, by name; every other command of the listing is started
// as the executable `jbench-<name>` beside this one, with the same arguments.
using CommandsHere = std::map<std::string, AddCommand>;

// The whole command line: `jbench --help` lists every command, whichever executable holds it.
int run_commands(int argc, char** argv, const CommandsHere& here);

Action add_plan_command(CLI::App& app);
Action add_run_command(CLI::App& app);
Action add_validate_command(CLI::App& app);
Action add_archive_command(CLI::App& app);
Action add_doctor_command(CLI::App& app);
Action add_probes_command(CLI::App& app);
Action add_report_command(CLI::App& app);
Action add_export_command(CLI::App& app);
Action add_oracle_command(CLI::App& app);
Action add_compare_command(CLI::App& app);
Action add_history_command(CLI::App& app);
Action add_propose_command(CLI::App& app);
Action add_merge_command(CLI::App& app);
Action add_slurm_command(CLI::App& app);
Action add_k8s_command(CLI::App& app);
Action add_check_worker_command(CLI::App& app);

}  // namespace jbench::cli
