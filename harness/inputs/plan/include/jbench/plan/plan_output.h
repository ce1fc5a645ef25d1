// The plan's two outward forms: a human-readable summary and a JSON document
// (schema manifests/plan.schema.json). Both are deterministic: same plan, same bytes.
#pragma once

#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "jbench/plan/plan.h"

namespace jbench {

// The JSON form puts one cell, block or run per line, so a plan of a million runs streams out
// without a document tree of it in memory (and diffs and greps well).
void write_plan_text(const Plan& plan, std::ostream& out);
void write_plan_json(const Plan& plan, std::ostream& out);

// Parts of the JSON form, for documents that embed them (a bundle's manifest).
nlohmann::json plan_counts_to_json(const Plan& plan);
// {"index", "count", "whole_plan_blocks", "whole_plan_runs"} of a shard's plan; null otherwise.
nlohmann::json plan_shard_to_json(const Plan& plan);
nlohmann::json plan_filters_to_json(const Plan& plan);
nlohmann::json plan_axes_to_json(const Plan& plan);
// The matrix values the command line replaced ([{key, file_value, value, by}]).
nlohmann::json plan_matrix_overrides_json(const Matrix& m);

// The same, as strings (for tests and small plans).
std::string plan_to_text(const Plan& plan);
std::string plan_to_json(const Plan& plan);

}  // namespace jbench
