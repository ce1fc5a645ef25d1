// jbench-<name>: one command that `jbench <name>` starts (commands.h). The build names it:
// JBENCH_COMMAND_NAME is its name, JBENCH_COMMAND_ADD its function.
#include "commands.h"

int main(int argc, char** argv) {
  return jbench::cli::run_commands(argc, argv,
                                   {{JBENCH_COMMAND_NAME, jbench::cli::JBENCH_COMMAND_ADD}});
}
