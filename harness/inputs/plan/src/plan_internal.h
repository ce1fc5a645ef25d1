// Pieces of make_plan() that live in their own files. Private to jbench::plan.
#pragma once

#include <vector>

#include "jbench/plan/plan.h"

namespace jbench::detail {

// The state of every axis value, derived from the plan's cells (and its filters).
std::vector<AxisStatus> axis_states(const Plan& plan, bool implicit_baseline);

// The time estimate of `runs` (plan.h, Estimate) under the matrix's phases and `options`.
Estimate make_estimate(const Matrix& m, const std::vector<Run>& runs, const PlanOptions& options);

}  // namespace jbench::detail
