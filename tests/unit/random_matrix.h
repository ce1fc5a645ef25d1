// A seeded random valid matrix for property tests of planning (plan_properties_test.cpp,
// plan_shard_test.cpp).
#pragma once

#include <cstdint>

#include "jbench/matrix/matrix.h"

namespace jbench::test {

// Random axis sizes and values, random exclude rules on workers and lane only (so no rule can
// orphan a baseline), random orderings; a warmup of 10 ms and a measure phase of 10 operations.
Matrix random_matrix(std::uint64_t seed);

}  // namespace jbench::test
