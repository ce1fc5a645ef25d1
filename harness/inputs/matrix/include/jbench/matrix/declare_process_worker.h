// A `kind: process` matrix made whole: its worker is asked to describe itself (`COMMAND describe`,
// docs/worker-protocol.md) and the matrix's parameters are checked against what it declared
// (jbench/matrix/worker_declaration.h). Every command that plans a process matrix does this once,
// before anything is planned: `jbench plan`, `run`, `propose` (once per side: a candidate's
// build may declare other parameters than the baseline's).
//
//   if (auto problems = declare_process_worker(m); !problems.empty()) refuse(problems);
//
// A library of its own (jbench::matrix_declare) beside jbench::matrix: it starts a process, which
// the matrix language itself never does.
#pragma once

#include <vector>

#include "jbench/common/diagnostic.h"
#include "jbench/matrix/matrix.h"

namespace jbench {

// The problems, located in the matrix file; a worker that does not describe itself is one,
// naming workload.command. Empty when `m` is declared (or not a process matrix).
std::vector<Diagnostic> declare_process_worker(Matrix& m);

}  // namespace jbench
