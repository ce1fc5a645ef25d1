#include "jbench/model/fields.h"

#include <fmt/format.h>

#include "jbench/bundle/json_file.h"

namespace jbench::model {

using Json = nlohmann::json;

std::string pointer_token(std::string_view key) {
  std::string out = "/";
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

namespace {

// What was found, short enough for one line.
std::string shown(const Json* found) {
  if (!found) return "nothing";
  std::string text = found->dump();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

const Json kEmptyObject = Json::object();

}  // namespace

Fields::Fields(const Json& object, std::string file, FieldLog* log)
    : Fields(object, std::make_shared<State>(State{std::move(file), std::nullopt, log}), "", "") {
  if (!object.is_object()) fail("", "an object", &object);
}

Fields::Fields(const Json& object, std::shared_ptr<State> state, std::string pointer,
               std::string logged)
    : object_(object.is_object() ? &object : &kEmptyObject),
      state_(std::move(state)),
      pointer_(std::move(pointer)),
      logged_(std::move(logged)) {}

std::string Fields::at(std::string_view key) const {
  return key.empty() ? pointer_ : pointer_ + pointer_token(key);
}

void Fields::fail(std::string_view key, std::string_view expected, const Json* found) {
  fail_at(at(key), expected, found);
}

void Fields::fail_at(const std::string& where, std::string_view expected, const Json* found) {
  if (state_->error) return;
  state_->error = Error{fmt::format("{} {}: expected {}, found {}", state_->file,
                                    where.empty() ? "/" : where, expected, shown(found)),
                        0, ErrorKind::input};
}

const Json* Fields::find(std::string_view key, bool required) {
  if (state_->log) state_->log->insert(logged_ + pointer_token(key));
  const auto it = object_->find(key);
  if (it == object_->end()) {
    if (required) fail(key, "a member", nullptr);
    return nullptr;
  }
  return &*it;
}

bool Fields::has(std::string_view key) const { return object_->contains(key); }

bool Fields::holds_object(std::string_view key) const {
  const auto it = object_->find(key);
  return it != object_->end() && it->is_object();
}

std::vector<std::string> Fields::names() const {
  std::vector<std::string> out;
  for (auto it = object_->begin(); it != object_->end(); ++it) out.push_back(it.key());
  return out;
}

const Error& Fields::error() const {
  if (!state_->error) result_detail::fail_access("Fields::error() on a good reading");
  return *state_->error;
}

std::optional<std::string> Fields::optional_text(std::string_view key) {
  const Json* v = find(key, false);
  if (!v || v->is_null()) return std::nullopt;
  if (!v->is_string()) {
    fail(key, "a string", v);
    return std::nullopt;
  }
  return v->get<std::string>();
}

std::string Fields::text(std::string_view key) {
  if (!has(key)) find(key, true);
  return optional_text(key).value_or("");
}

std::optional<std::uint64_t> Fields::optional_count(std::string_view key) {
  const Json* v = find(key, false);
  if (!v || v->is_null()) return std::nullopt;
  if (!v->is_number_unsigned() && !(v->is_number_integer() && v->get<std::int64_t>() >= 0)) {
    fail(key, "a non-negative integer", v);
    return std::nullopt;
  }
  return v->get<std::uint64_t>();
}

std::uint64_t Fields::count(std::string_view key) {
  if (!has(key)) find(key, true);
  return optional_count(key).value_or(0);
}

std::int64_t Fields::integer(std::string_view key) {
  const Json* v = find(key, true);
  if (!v) return 0;
  if (!v->is_number_integer()) {
    fail(key, "an integer", v);
    return 0;
  }
  return v->get<std::int64_t>();
}

std::optional<bool> Fields::optional_flag(std::string_view key) {
  const Json* v = find(key, false);
  if (!v || v->is_null()) return std::nullopt;
  if (!v->is_boolean()) {
    fail(key, "true or false", v);
    return std::nullopt;
  }
  return v->get<bool>();
}

std::optional<double> Fields::optional_number(std::string_view key) {
  const Json* v = find(key, false);
  if (!v || v->is_null()) return std::nullopt;
  if (!v->is_number()) {
    fail(key, "a number", v);
    return std::nullopt;
  }
  return v->get<double>();
}

std::optional<std::uint64_t> Fields::optional_decimal(std::string_view key) {
  const Json* v = find(key, false);
  if (!v || v->is_null()) return std::nullopt;
  const auto value = decimal_value(*v);
  if (!value) fail(key, "a decimal string of a 64-bit value", v);
  return value;
}

std::optional<double> Fields::optional_quantity(std::string_view key) {
  const Json* v = find(key, false);
  if (!v || v->is_null()) return std::nullopt;
  if (v->is_number()) return v->get<double>();
  const auto value = decimal_value(*v);
  if (!value) {
    fail(key, "a number or a decimal string", v);
    return std::nullopt;
  }
  return static_cast<double>(*value);
}

std::uint64_t Fields::decimal(std::string_view key) {
  if (!has(key)) find(key, true);
  return optional_decimal(key).value_or(0);
}

std::vector<std::string> Fields::texts(std::string_view key) {
  const Json* v = find(key, false);
  if (!v || v->is_null()) return {};
  if (v->is_string()) return {v->get<std::string>()};
  std::vector<std::string> out;
  for (const Json& item : v->is_array() ? *v : Json::array({Json()})) {
    if (!item.is_string()) {
      fail(key, "a string or a list of strings", v);
      return {};
    }
    out.push_back(item.get<std::string>());
  }
  return out;
}

std::optional<Fields> Fields::optional_object(std::string_view key) {
  const Json* v = find(key, false);
  if (!v || v->is_null()) return std::nullopt;
  if (!v->is_object()) fail(key, "an object", v);
  return Fields(*v, state_, at(key), logged_ + pointer_token(key));
}

Fields Fields::object(std::string_view key) {
  if (!has(key)) find(key, true);
  if (auto child = optional_object(key)) return std::move(*child);
  return Fields(kEmptyObject, state_, at(key), logged_ + pointer_token(key));
}

std::vector<Fields> Fields::optional_items(std::string_view key) {
  const Json* v = find(key, false);
  if (!v || v->is_null()) return {};
  if (!v->is_array()) {
    fail(key, "a list", v);
    return {};
  }
  std::vector<Fields> out;
  for (std::size_t i = 0; i < v->size(); ++i) {
    const std::string item = fmt::format("{}/{}", at(key), i);
    if (!(*v)[i].is_object()) {
      fail_at(item, "an object", &(*v)[i]);
      return {};
    }
    out.push_back(Fields((*v)[i], state_, item, logged_ + pointer_token(key) + "/*"));
  }
  return out;
}

std::vector<Fields> Fields::items(std::string_view key) {
  if (!has(key)) find(key, true);
  return optional_items(key);
}

std::vector<std::pair<std::string, std::string>> Fields::read_labels(std::string_view key,
                                                                     bool scalars) {
  const std::string_view expected = scalars ? "an object of labels" : "an object of strings";
  const Json* v = find(key, true);
  if (!v) return {};
  if (!v->is_object()) {
    fail(key, expected, v);
    return {};
  }
  std::vector<std::pair<std::string, std::string>> out;
  for (auto it = v->begin(); it != v->end(); ++it) {
    const Json& value = it.value();
    const bool fits = value.is_string() || (scalars && value.is_primitive() && !value.is_null());
    if (!fits) {
      fail(key, expected, v);
      return {};
    }
    out.emplace_back(it.key(), value.is_string() ? value.get<std::string>() : value.dump());
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> Fields::labels(std::string_view key) {
  return read_labels(key, false);
}

std::vector<std::pair<std::string, std::string>> Fields::scalar_labels(std::string_view key) {
  return read_labels(key, true);
}

}  // namespace jbench::model
