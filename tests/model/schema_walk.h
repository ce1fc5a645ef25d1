// Whether a JSON Schema (draft 7, as manifests/ writes them) declares the member a pointer names:
// "/runs/*/trace" walks properties, "*" an array's items, through local $refs and the branches
// of allOf, anyOf, oneOf and if/then/else. Only what the schemas in manifests/ use is followed.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

namespace jbench::test {

bool schema_declares(const nlohmann::json& schema, std::string_view pointer);

}  // namespace jbench::test
