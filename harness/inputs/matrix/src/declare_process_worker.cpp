#include "jbench/matrix/declare_process_worker.h"

#include <fmt/format.h>

#include "jbench/matrix/worker_declaration.h"
#include "jbench/matrix/workload_kinds.h"
#include "jbench/proc/worker_describe.h"

namespace jbench {
namespace {

// A worker that has not described itself in this long is not going to.
constexpr int kDescribeTimeoutMs = 30'000;

}  // namespace

std::vector<Diagnostic> declare_process_worker(Matrix& m) {
  if (m.workload.kind != kProcessKind) return {};
  const auto line = proc::ask_worker_to_describe(m.workload.command, kDescribeTimeoutMs);
  auto declared = line ? parse_worker_declaration(*line) : Error(line.error());
  if (!declared) {
    const std::string why = line ? fmt::format("'{} describe' answered wrong: {}",
                                               m.workload.command.front(), declared.error().message)
                                 : line.error().message;
    return {Diagnostic{{m.file, 0, 0},
                       "workload.command",
                       fmt::format("{} (docs/worker-protocol.md, \"describe\")", why)}};
  }
  return declare_workload(m, std::move(*declared));
}

}  // namespace jbench
