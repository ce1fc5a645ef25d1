#include "fuzz_mutator.h"

#include <charconv>
#include <cstdlib>
#include <vector>

namespace jbench::test {
namespace {

using Json = nlohmann::json;
using Pointer = Json::json_pointer;

// Every value below the root, with whether its parent is an object (so it is a named member).
void collect(const Json& v, const Pointer& at, std::vector<std::pair<Pointer, bool>>& out) {
  if (v.is_object()) {
    for (const auto& [key, child] : v.items()) {
      out.emplace_back(at / key, true);
      collect(child, at / key, out);
    }
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i) {
      out.emplace_back(at / i, false);
      collect(v[i], at / i, out);
    }
  }
}

bool decimal_string(const Json& v) {
  if (!v.is_string()) return false;
  const auto& s = v.get_ref<const std::string&>();
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

bool is_number(const Json& v) { return v.is_number() || decimal_string(v); }

std::uint64_t bumped(std::uint64_t n) { return n + std::max<std::uint64_t>(1, n / 2); }

Json changed_number(const Json& v) {
  if (v.is_string()) return std::to_string(bumped(std::stoull(v.get<std::string>())));
  if (v.is_number_float()) return v.get<double>() * 1.5 + 1;
  if (v.is_number_unsigned()) return bumped(v.get<std::uint64_t>());
  const auto i = v.get<std::int64_t>();
  return i >= 0 ? Json(bumped(static_cast<std::uint64_t>(i))) : Json(i - 1 + i / 2);
}

// Another JSON type than the value's own, always the same one for a given type.
Json changed_type(const Json& v) {
  if (v.is_string()) return 12345;
  if (v.is_number()) return "12345";
  if (v.is_boolean()) return "true";
  if (v.is_null()) return 0;
  if (v.is_object()) return Json::array();
  return Json::object();
}

}  // namespace

std::uint64_t env_or(const char* name, std::uint64_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

const char* op_name(FuzzOp op) {
  switch (op) {
    case FuzzOp::remove_field:
      return "remove_field";
    case FuzzOp::rename_key:
      return "rename_key";
    case FuzzOp::change_type:
      return "change_type";
    case FuzzOp::change_number:
      return "change_number";
    case FuzzOp::truncate:
      return "truncate";
    case FuzzOp::garbage_line:
      return "garbage_line";
  }
  return "?";
}

std::optional<JsonMutation> mutate_json(const Json& doc, FuzzOp op, SplitMix64& rng) {
  std::vector<std::pair<Pointer, bool>> all;
  collect(doc, Pointer(), all);
  std::vector<Pointer> fit;
  for (const auto& [p, named] : all) {
    const bool ok = op == FuzzOp::change_type                                ? true
                    : op == FuzzOp::change_number                            ? is_number(doc[p])
                    : op == FuzzOp::remove_field || op == FuzzOp::rename_key ? named
                                                                             : false;
    if (ok) fit.push_back(p);
  }
  if (fit.empty()) return std::nullopt;
  const Pointer p = fit[rng.below(fit.size())];
  JsonMutation m{doc, p.to_string()};
  if (op == FuzzOp::change_type) {
    m.doc[p] = changed_type(doc[p]);
  } else if (op == FuzzOp::change_number) {
    m.doc[p] = changed_number(doc[p]);
  } else {
    Json& parent = m.doc[p.parent_pointer()];
    const std::string key = p.back();
    if (op == FuzzOp::rename_key) parent[key + "_renamed"] = parent[key];
    parent.erase(key);
  }
  return m;
}

std::string mutate_text(const std::string& text, FuzzOp op, SplitMix64& rng) {
  if (op == FuzzOp::truncate) {
    std::size_t last = text.find_last_not_of(" \t\r\n");
    if (last == std::string::npos) last = 0;
    return text.substr(0, last == 0 ? 0 : rng.below(last));
  }
  std::vector<std::size_t> boundaries = {0};
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') boundaries.push_back(i + 1);
  }
  const std::size_t at = boundaries[rng.below(boundaries.size())];
  return text.substr(0, at) + "\x01garbage: [not json {\n" + text.substr(at);
}

}  // namespace jbench::test
