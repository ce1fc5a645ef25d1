#include "jbench/scheduler/yaml_text.h"

#include <algorithm>
#include <sstream>

namespace jbench::scheduler {
namespace {

using Json = nlohmann::ordered_json;

std::string pad(std::size_t n) { return std::string(n, ' '); }

// A key made only of characters YAML never reads specially is written bare.
std::string key_text(const std::string& key) {
  const bool plain = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.' || c == '/';
  });
  return plain && key.front() != '-' ? key : Json(key).dump();
}

// A literal block ("|") keeps every character of a string that ends with exactly one newline,
// holds no tab or carriage return, and whose first line is not empty and does not start with a
// space (the block's indentation is read from it); others are quoted.
bool fits_literal_block(const std::string& s) {
  if (s.size() < 2 || s.back() != '\n' || s[s.size() - 2] == '\n') return false;
  if (s.find_first_of("\t\r") != std::string::npos) return false;
  return s.front() != ' ' && s.front() != '\n';
}

void emit(const Json& v, std::size_t indent, std::string& out);

// After "key:" or "-": the value on the same line if it is a scalar, else on the lines below.
void emit_after_key(const Json& v, std::size_t indent, std::string& out) {
  if (v.is_object() && !v.empty()) {
    out += "\n";
    emit(v, indent, out);
  } else if (v.is_array() && !v.empty()) {
    out += "\n";
    emit(v, indent, out);
  } else if (v.is_string() && fits_literal_block(v.get<std::string>())) {
    out += " |\n";
    std::istringstream lines(v.get<std::string>());
    for (std::string line; std::getline(lines, line);) {
      out += line.empty() ? "\n" : pad(indent) + line + "\n";
    }
  } else {
    out += " " + v.dump() + "\n";
  }
}

void emit(const Json& v, std::size_t indent, std::string& out) {
  if (v.is_object()) {
    for (const auto& [key, value] : v.items()) {
      out += pad(indent) + key_text(key) + ":";
      emit_after_key(value, indent + 2, out);
    }
  } else if (v.is_array()) {
    for (const Json& item : v) {
      if (item.is_object() && !item.empty()) {
        // "- first: ..." with the rest of the mapping under it.
        std::string block;
        emit(item, indent + 2, block);
        out += pad(indent) + "- " + block.substr(indent + 2);
      } else {
        out += pad(indent) + "-";
        emit_after_key(item, indent + 2, out);
      }
    }
  }
}

}  // namespace

std::string to_yaml(const nlohmann::ordered_json& document) {
  std::string out;
  if (document.is_object() || document.is_array()) {
    emit(document, 0, out);
  } else {
    out = document.dump() + "\n";
  }
  return out;
}

}  // namespace jbench::scheduler
