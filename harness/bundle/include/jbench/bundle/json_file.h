// One JSON document of a bundle read whole (manifest.json, run.json, summary.json, a worker's
// result), for every reader of bundles: the object, or nullopt with why it is not one.
//
//   std::string error;
//   auto run = read_json_object(dir + "/run.json", error);  // error: "cannot read <path>", ...
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace jbench {

std::optional<nlohmann::json> read_json_object(const std::string& path, std::string& error);

}  // namespace jbench
