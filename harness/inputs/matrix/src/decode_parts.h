// The matrix decoder's parts, one per section of the file. Private to jbench::matrix.
#pragma once

#include "decode_support.h"
#include "jbench/matrix/matrix.h"
#include "jbench/matrix/workload_kinds.h"

namespace jbench::decode {

// Upper bound on the cells of the full product and on the runs a matrix may expand to: a bad
// matrix must fail here, not in an allocation of billions of runs. Two million runs of even one
// second each are three weeks of machine time: past that a matrix is a mistake or wants sharding.
inline constexpr std::uint64_t kMaxCells = 1'000'000;
inline constexpr std::uint64_t kMaxRuns = 2'000'000;

void decode_matrix(Context& ctx, const yaml::Node& root, Matrix& m);
// `workload.params` (null: none given) against a kind's parameter table, into
// m.workload.params; a parameter an axis sweeps (decoded first) is left out of them.
void decode_params(Context& ctx, const yaml::Node* params, const WorkloadKind& kind, Matrix& m);
// One value of a parameter, checked against its spec.
std::optional<ParamValue> decode_param_value(Context& ctx, const yaml::Node& n,
                                             const std::string& path, const ParamSpec& spec);
void decode_axes(Context& ctx, const yaml::Node& axes, Matrix& m);
// The parameter axes of `axes:` (every key that is not a built-in axis), in the param slots.
// With `kind`, each value is checked against its spec and labelled by its text; without one (a
// process worker not yet declared) the values are kept as written, to be decoded again once the
// worker has declared its parameters (declare_workload).
void decode_param_axes(Context& ctx, const yaml::Node& axes, const WorkloadKind* kind, Matrix& m);
// Needs the axes; also checks that every rule excludes a cell no earlier rule excludes, and that
// no rule removes a baseline while traced runs of the same cell stay.
void decode_excludes(Context& ctx, const yaml::Node& exclude, Matrix& m);

}  // namespace jbench::decode
