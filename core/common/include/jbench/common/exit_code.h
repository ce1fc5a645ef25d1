// The exit codes of jbench, each named once (docs/cli.md). Only the command line exits with them;
// a comparison's and a history's documents record the code their command exits with.
//
//   0  success
//   1  the thing checked failed (an invalid bundle, a regression) — not used by `plan`
//   2  bad usage or bad input (a matrix with errors, an unknown --only axis, a missing file)
//   3  an output that could not be written (a file of a bundle, a page), or an internal error:
//      the message says what broke
//   4  no verdict: the evidence decides nothing either way (compare, history, propose)
#pragma once

namespace jbench {

enum ExitCode : int {
  kExitOk = 0,
  kExitCheckFailed = 1,
  kExitUsage = 2,
  kExitInternal = 3,
  kExitNoVerdict = 4
};

}  // namespace jbench
