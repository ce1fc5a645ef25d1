// The schemas of manifests/, compiled in. Private to jbench::schema.
#pragma once

#include <string_view>
#include <vector>

namespace jbench::detail {

struct EmbeddedSchema {
  std::string_view name;  // file name, e.g. "plan.schema.json"
  std::string_view text;
};

const std::vector<EmbeddedSchema>& embedded_schemas();

}  // namespace jbench::detail
