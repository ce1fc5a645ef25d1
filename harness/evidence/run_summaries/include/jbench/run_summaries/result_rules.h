// What a measure phase's `result` must hold: its schema (manifests/worker-result.schema.json), the
// identity the hello gave, the lane and connection it was configured with, the operations that
// were asked for, and counts that add up. Pure. One set of rules for `jbench check-worker`, which
// names the rule a worker breaks, and `jbench run`, which fails the run the same way.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace jbench::run_summaries {

struct Asked {
  std::string lane;
  std::string connection;
  // The measure phase's operation count, when the phase is counted in operations (a phase of a
  // duration leaves the count to the worker).
  std::optional<std::uint64_t> operations;
};

// A sentence per broken rule; empty when the result holds them all.
std::vector<std::string> result_problems(const nlohmann::json& result, const nlohmann::json& hello,
                                         const Asked& asked);

}  // namespace jbench::run_summaries
