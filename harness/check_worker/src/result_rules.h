// What a measure phase's `result` must hold for the conformance pass: its schema
// (manifests/worker-result.schema.json), the identity the hello gave, the operations that were
// asked for, and counts that add up. Pure. Private to jbench::check_worker.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace jbench::check_worker {

struct Asked {
  std::string lane;
  std::string connection;
  std::uint64_t operations = 0;  // the measure phase's operation count
};

// A sentence per broken rule; empty when the result holds them all.
std::vector<std::string> result_problems(const nlohmann::json& result, const nlohmann::json& hello,
                                         const Asked& asked);

}  // namespace jbench::check_worker
