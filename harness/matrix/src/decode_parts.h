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
// `workload.params` (null: none given) against a kind's parameter table, into out.params.
void decode_params(Context& ctx, const yaml::Node* params, const WorkloadKind& kind, Workload& out);
void decode_axes(Context& ctx, const yaml::Node& axes, Matrix& m);
// Needs the axes; also checks that every rule excludes a cell no earlier rule excludes, and that
// no rule removes a baseline while traced runs of the same cell stay.
void decode_excludes(Context& ctx, const yaml::Node& exclude, Matrix& m);

}  // namespace jbench::decode
