// Asking an outside worker (a matrix's `workload: {kind: process, command: [...]}`) who it is:
// `COMMAND... describe` prints one JSON line declaring its parameters (docs/worker-protocol.md,
// "describe") and exits 0. Asked once per `jbench plan`/`run`, before anything is planned; what it
// says is checked by the matrix library (jbench/matrix/worker_declaration.h).
//
//   const auto line = ask_worker_to_describe(m.workload.command, 10'000);
//   if (!line) refuse(line.error().message);
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "jbench/common/result.h"

namespace jbench::proc {

// The program a worker command names, as an absolute path: made absolute against the working
// directory when it has a '/', else the first of that name on PATH; "" when there is none or
// it is not an executable file.
std::string worker_program(std::string_view word);

// The one line it printed, without its newline; or one sentence naming the command when it did not
// answer as it must (a host error when it could not be started at all).
Result<std::string> ask_worker_to_describe(const std::vector<std::string>& command, int timeout_ms);

}  // namespace jbench::proc
