#include "jbench/cli/cli.h"

int main(int argc, char** argv) { return jbench::run_cli(argc, argv); }
