// What must be equal for two bundles' cells to be compared, as flat "key: value" facts, and the
// keys that differ. Private to jbench::compare.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "jbench/compare/compare_side.h"

namespace jbench::compare {

// workload.kind, workload.params.<p>, phases.warmup, phases.measure, datasets.<d>.<field>.
std::map<std::string, std::string> cell_definition(const Matrix& m);
// The hosts' memory more than 5% apart (the same machine reports slightly different totals
// after a kernel update), in words; nullopt when close or unknown.
std::optional<std::string> memory_difference(const model::Host& base, const model::Host& candidate);

// "key: base value -> candidate value" for every key whose values differ (or that one side
// lacks), in key order. `skip_missing`: a key one side lacks is not a difference (datasets).
std::vector<std::string> differing(const std::map<std::string, std::string>& base,
                                   const std::map<std::string, std::string>& candidate,
                                   bool skip_missing = false);

}  // namespace jbench::compare
