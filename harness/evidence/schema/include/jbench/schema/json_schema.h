// JSON Schema validation of jbench's documents (draft 7).
//
//   auto schema = JsonSchema::load("manifests/plan.schema.json");
//   if (!schema) return schema.error();   // names the file and what is wrong with it
//   for (const auto& v : schema->validate(doc)) std::cerr << v.pointer << ": " << v.message;
#pragma once

#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "jbench/common/result.h"

namespace jbench {

struct SchemaViolation {
  std::string pointer;  // JSON pointer to the offending value, "" for the document itself
  std::string message;
};

class JsonSchema {
 public:
  // Reads and compiles a schema file, or says why it cannot.
  static Result<JsonSchema> load(const std::string& path);
  // One of the schemas of manifests/ compiled into jbench, by file name ("run.schema.json").
  static Result<JsonSchema> builtin(const std::string& name);
  ~JsonSchema();
  JsonSchema(JsonSchema&&) noexcept;
  JsonSchema& operator=(JsonSchema&&) noexcept;
  JsonSchema(const JsonSchema&) = delete;
  JsonSchema& operator=(const JsonSchema&) = delete;

  // Every violation, leaf errors only (not the "a child failed" parents), in document order.
  std::vector<SchemaViolation> validate(const nlohmann::json& document) const;

 private:
  struct Impl;
  explicit JsonSchema(std::unique_ptr<Impl> impl);
  static Result<JsonSchema> compile(const nlohmann::json& document, const std::string& label);
  std::unique_ptr<Impl> impl_;
};

}  // namespace jbench
