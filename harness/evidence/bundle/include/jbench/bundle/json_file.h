// One JSON document of a bundle read whole (manifest.json, run.json, summary.json, a worker's
// result), for every reader of bundles: the object, or an input error saying why it is not one;
// and a 64-bit value written as a decimal string, which the bundle model reads.
//
//   auto run = read_json_object(dir + "/run.json");  // run.error(): "cannot read <path>", ...
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "jbench/common/result.h"

namespace jbench {

Result<nlohmann::json> read_json_object(const std::string& path);

// A 64-bit value written as a canonical decimal string (jbench/stats/decimal.h); nullopt for
// anything else, a null included.
std::optional<std::uint64_t> decimal_value(const nlohmann::json& value);

}  // namespace jbench
