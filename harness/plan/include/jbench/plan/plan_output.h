// The plan's two outward forms: a human-readable summary and a JSON document
// (schema manifests/plan.schema.json). Both are deterministic: same plan, same bytes.
#pragma once

#include <string>

#include "jbench/plan/plan.h"

namespace jbench {

std::string plan_to_text(const Plan& plan);
std::string plan_to_json(const Plan& plan);  // pretty-printed, ends with a newline

}  // namespace jbench
