// The jbench command line's exit codes (jbench/common/exit_code.h, docs/cli.md). Results go to
// stdout, diagnostics to stderr.
#pragma once

#include "jbench/common/exit_code.h"
