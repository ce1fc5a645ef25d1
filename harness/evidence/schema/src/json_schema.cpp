#include "jbench/schema/json_schema.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <utility>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/utils/nlohmann_json_utils.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "embedded_schemas.h"

namespace jbench {

struct JsonSchema::Impl {
  valijson::Schema schema;
};

JsonSchema::JsonSchema(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
JsonSchema::JsonSchema(JsonSchema&&) noexcept = default;
JsonSchema& JsonSchema::operator=(JsonSchema&&) noexcept = default;
JsonSchema::~JsonSchema() = default;

Result<JsonSchema> JsonSchema::compile(const nlohmann::json& document, const std::string& label) {
  auto impl = std::make_unique<Impl>();
  try {
    valijson::SchemaParser parser;
    valijson::adapters::NlohmannJsonAdapter adapter(document);
    parser.populateSchema(adapter, impl->schema);
  } catch (const std::exception& e) {
    return Error{fmt::format("{}: not a usable JSON Schema: {}", label, e.what()), 0,
                 ErrorKind::input};
  }
  return JsonSchema(std::move(impl));
}

Result<JsonSchema> JsonSchema::load(const std::string& path) {
  nlohmann::json document;
  if (!valijson::utils::loadDocument(path, document)) {
    return Error{fmt::format("{}: cannot read or parse the schema", path), 0, ErrorKind::input};
  }
  return compile(document, path);
}

Result<JsonSchema> JsonSchema::builtin(const std::string& name) {
  for (const auto& schema : detail::embedded_schemas()) {
    if (schema.name != name) continue;
    auto document = nlohmann::json::parse(schema.text, nullptr, false);
    if (document.is_discarded()) {
      return Error{fmt::format("{}: the built-in schema is not JSON", name), 0, ErrorKind::input};
    }
    return compile(document, name);
  }
  return Error{fmt::format("no built-in schema named '{}'", name), 0, ErrorKind::input};
}

namespace {

// valijson's context is a path like ["<root>", "[runs]", "[3]", "[seed]"]; a JSON pointer reads
// better and is what other tools expect.
std::string to_pointer(const std::vector<std::string>& context) {
  std::string pointer;
  for (std::size_t i = 1; i < context.size(); ++i) {
    std::string part = context[i];
    if (part.size() >= 2 && part.front() == '[' && part.back() == ']') {
      part = part.substr(1, part.size() - 2);
    }
    if (part.size() >= 2 && part.front() == '"' && part.back() == '"') {
      part = part.substr(1, part.size() - 2);
    }
    pointer += "/" + part;
  }
  return pointer;
}

bool is_parent_summary(const std::string& description) {
  // valijson reports, besides each leaf error, one entry per enclosing level that only says a
  // child failed; those repeat the leaf and are dropped.
  return description.find("Failed to validate against schema associated with") !=
             std::string::npos ||
         description.find("Failed to validate item #") != std::string::npos ||
         description.find("Failed to validate against child schema") != std::string::npos ||
         description.find("Failed to validate against a conditional schema") != std::string::npos;
}

}  // namespace

std::vector<SchemaViolation> JsonSchema::validate(const nlohmann::json& document) const {
  valijson::Validator validator;
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter adapter(document);
  std::vector<SchemaViolation> out;
  if (validator.validate(impl_->schema, adapter, &results)) return out;
  valijson::ValidationResults::Error error;
  while (results.popError(error)) {
    if (is_parent_summary(error.description)) continue;
    out.push_back({to_pointer(error.context), error.description});
  }
  if (out.empty()) out.push_back({"", "the document does not match the schema"});
  return out;
}

}  // namespace jbench
