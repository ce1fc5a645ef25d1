// One JSON document of a bundle read whole (manifest.json, run.json, summary.json, a worker's
// result), for every reader of bundles: the object, or an input error saying why it is not one;
// and the two lookups every reader of those documents makes.
//
//   auto run = read_json_object(dir + "/run.json");  // run.error(): "cannot read <path>", ...
//   auto t = decimal_at(run->at("boundaries"), "measure_start_ns");  // "123" -> 123
//   const nlohmann::json* syscall = collector_entry(*run, "syscall");
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "jbench/common/result.h"

namespace jbench {

Result<nlohmann::json> read_json_object(const std::string& path);

// A 64-bit value written as a canonical decimal string (jbench/stats/decimal.h); nullopt for
// anything else, a null included.
std::optional<std::uint64_t> decimal_value(const nlohmann::json& value);
// The same for the member `key` of `object`; nullopt when `object` is not an object or lacks it.
std::optional<std::uint64_t> decimal_at(const nlohmann::json& object, const char* key);

// run.json's entry of the collector `name` (trace_mode.collectors[]), or nullptr.
const nlohmann::json* collector_entry(const nlohmann::json& run, std::string_view name);

}  // namespace jbench
