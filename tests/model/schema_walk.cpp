#include "schema_walk.h"

#include <string>
#include <vector>

namespace jbench::test {
namespace {

using Json = nlohmann::json;

std::vector<std::string> tokens(std::string_view pointer) {
  std::vector<std::string> out;
  std::size_t at = 1;
  while (at <= pointer.size() && !pointer.empty()) {
    const std::size_t end = std::min(pointer.find('/', at), pointer.size());
    out.emplace_back(pointer.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

// The schemas `node` stands for: itself, what its $ref names, and its branches.
void expand(const Json& root, const Json& node, std::vector<const Json*>& out) {
  if (!node.is_object()) return;
  out.push_back(&node);
  if (const auto ref = node.find("$ref"); ref != node.end() && ref->is_string()) {
    const std::string target = ref->get<std::string>();
    if (target.starts_with("#")) expand(root, root.at(Json::json_pointer(target.substr(1))), out);
  }
  for (const char* key : {"allOf", "anyOf", "oneOf"}) {
    if (const auto list = node.find(key); list != node.end() && list->is_array()) {
      for (const Json& branch : *list) expand(root, branch, out);
    }
  }
  for (const char* key : {"then", "else"}) {
    if (const auto branch = node.find(key); branch != node.end()) expand(root, *branch, out);
  }
}

// The schemas a member `token` of an instance of `node` must follow.
std::vector<const Json*> step(const Json& root, const Json& node, const std::string& token) {
  std::vector<const Json*> here;
  expand(root, node, here);
  std::vector<const Json*> next;
  for (const Json* s : here) {
    if (token == "*") {
      if (const auto items = s->find("items"); items != s->end()) next.push_back(&*items);
      continue;
    }
    const auto props = s->find("properties");
    if (props != s->end() && props->contains(token)) {
      next.push_back(&props->at(token));
    } else if (const auto extra = s->find("additionalProperties");
               extra != s->end() && extra->is_object()) {
      next.push_back(&*extra);
    }
  }
  return next;
}

}  // namespace

bool schema_declares(const Json& schema, std::string_view pointer) {
  std::vector<const Json*> at = {&schema};
  for (const std::string& token : tokens(pointer)) {
    std::vector<const Json*> next;
    for (const Json* s : at) {
      for (const Json* n : step(schema, *s, token)) next.push_back(n);
    }
    if (next.empty()) return false;
    at = std::move(next);
  }
  return true;
}

}  // namespace jbench::test
