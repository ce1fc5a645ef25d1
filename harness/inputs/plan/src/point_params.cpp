// The parameters a point's runs are sent: the workload's single values and, for each parameter
// an axis sweeps, the value the point takes on that axis.
#include "jbench/matrix/worker_declaration.h"
#include "jbench/plan/plan.h"

namespace jbench {

std::vector<Param> point_params(const Matrix& m, const CellValues& point) {
  const WorkloadKind* kind = workload_kind_of(m.workload);
  if (!kind) return m.workload.params;
  std::vector<Param> out;
  for (const auto& spec : kind->params) {
    if (const auto axis = m.param_axis_of(spec.key)) {
      const auto v = point[static_cast<std::size_t>(*axis)];
      if (v != kAbsent) out.push_back({std::string(spec.key), m.axis(*axis).values[v], false});
      continue;
    }
    for (const auto& p : m.workload.params) {
      if (p.key == spec.key) out.push_back(p);
    }
  }
  return out;
}

}  // namespace jbench
