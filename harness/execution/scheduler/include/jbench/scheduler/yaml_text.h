// A JSON document written as block-style YAML that any YAML 1.2 parser reads back as the same
// document: strings double-quoted with JSON's escapes (a JSON string is a YAML double-quoted
// scalar), multi-line strings as literal blocks so that a script reads as a script. Pure.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace jbench::scheduler {

// Keys in the order the document holds them (ordered_json: as they were inserted).
std::string to_yaml(const nlohmann::ordered_json& document);

}  // namespace jbench::scheduler
