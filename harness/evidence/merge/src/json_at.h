// Reading the shards' documents by JSON pointer. They passed their schemas, but a reader never
// trusts a shape it did not check itself: what is absent or of another type reads as null or "".
// Private to jbench::merge.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace jbench::merge {

// The value at `pointer` ("/plan/shard"), or null.
inline nlohmann::json at(const nlohmann::json& doc, const char* pointer) {
  const nlohmann::json::json_pointer p(pointer);
  return doc.contains(p) ? doc.at(p) : nlohmann::json();
}

// The string at `pointer`, or "".
inline std::string text_at(const nlohmann::json& doc, const char* pointer) {
  const nlohmann::json v = at(doc, pointer);
  return v.is_string() ? v.get<std::string>() : "";
}

}  // namespace jbench::merge
