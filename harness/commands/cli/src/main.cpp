// jbench: the commands a run and its first look need. The others are executables of their own
// beside it (commands.h), which `jbench <name>` starts.
#include "commands.h"

int main(int argc, char** argv) {
  namespace cli = jbench::cli;
  return cli::run_commands(argc, argv,
                           {{"plan", cli::add_plan_command},
                            {"run", cli::add_run_command},
                            {"validate", cli::add_validate_command},
                            {"archive", cli::add_archive_command},
                            {"doctor", cli::add_doctor_command},
                            {"probes", cli::add_probes_command},
                            {"report", cli::add_report_command},
                            {"oracle", cli::add_oracle_command}});
}
