// One function per subcommand: each registers its options on the app and returns the action to
// run once parsing succeeded. Private to jbench::cli.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace jbench::cli {

using Action = std::function<int()>;

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

}  // namespace jbench::cli
