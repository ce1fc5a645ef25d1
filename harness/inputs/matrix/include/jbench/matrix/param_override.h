// Replacing a workload parameter of a loaded matrix, as a proposal's side does, and recording it
// where the plan and the bundle's manifest show it (MatrixOverride). The one place a parameter's
// value is written as text and read back from text, so that a bundle's recorded overrides can be
// applied again by whoever reads it (jbench compare) and give the same matrix.
//
//   if (Status s = override_param(m, "subquery_cache", "transaction", "proposal candidate"); !s)
//     fail(s.error().message);   // an unknown key, or a value its spec refuses
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "jbench/common/result.h"
#include "jbench/matrix/matrix.h"

namespace jbench {

inline constexpr std::string_view kParamOverridePrefix = "workload.params.";

// "none" for an absent value, the number or the string otherwise.
std::string param_value_text(const ParamValue& v);

struct ParamSpec;  // workload_kinds.h
// The value `text` denotes under `spec` (an integer in its range, a number in its range, one of
// its choices, a plain file name), or why not.
Result<ParamValue> param_value_from_text(const ParamSpec& spec, std::string_view text);

// Sets workload.params.<key> to the value `text` denotes under the kind's spec (an integer in its
// range, a number in its range, one of its choices, a plain file name) and appends the override
// {"workload.params.<key>", old text, new text, by}. Or why not, changing nothing, when the key
// is not a parameter of the matrix's workload or the value does not fit.
Status override_param(Matrix& m, std::string_view key, std::string_view text, std::string by);

// The overrides a bundle's manifest records (/matrix/overrides, model::Manifest) applied again to
// the matrix read from its matrix.yaml, so that whoever reads the bundle sees the matrix that ran:
// `repetitions` and every `workload.params.<key>`; the others (limits, a proposal's rule hash)
// change neither the plan nor a cell's definition. Why not, when a value does not fit.
Status apply_recorded_overrides(const std::vector<MatrixOverride>& overrides, Matrix& m);

}  // namespace jbench
