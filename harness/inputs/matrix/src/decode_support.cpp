#include "decode_support.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>

#include "jbench/common/text.h"

namespace jbench::decode {

std::string join_path(std::string_view parent, std::string_view key) {
  if (parent.empty()) return std::string(key);
  return fmt::format("{}.{}", parent, key);
}

std::string index_path(std::string_view parent, std::size_t index) {
  return fmt::format("{}[{}]", parent, index);
}

SourceLocation Context::where(const yaml::Node& at) const {
  return SourceLocation{file_, at.line, at.column};
}

void Context::error(const yaml::Node& at, std::string_view path, std::string message) {
  out_.push_back(Diagnostic{where(at), std::string(path), std::move(message)});
}

std::optional<std::uint64_t> Context::integer(const yaml::Node& n, std::string_view path,
                                              std::uint64_t min, std::uint64_t max) {
  const bool digits = n.kind == yaml::Node::Kind::scalar && !n.quoted && !n.scalar.empty() &&
                      n.scalar.find_first_not_of("0123456789") == std::string::npos;
  if (!digits) {
    const bool negative = n.kind == yaml::Node::Kind::scalar && !n.quoted && n.scalar.size() > 1 &&
                          n.scalar[0] == '-' &&
                          n.scalar.find_first_not_of("0123456789", 1) == std::string::npos;
    if (negative) {
      error(n, path, fmt::format("value {} is out of range {}..{}", n.scalar, min, max));
    } else {
      error(n, path, fmt::format("expected a whole number, got {}", yaml::describe_kind(n)));
    }
    return std::nullopt;
  }
  std::uint64_t value = 0;
  const auto* end = n.scalar.data() + n.scalar.size();
  const auto [ptr, ec] = std::from_chars(n.scalar.data(), end, value);
  if (ec != std::errc{} || ptr != end || value < min || value > max) {
    error(n, path, fmt::format("value {} is out of range {}..{}", n.scalar, min, max));
    return std::nullopt;
  }
  return value;
}

std::optional<double> Context::number(const yaml::Node& n, std::string_view path, double min,
                                      double max) {
  if (n.kind != yaml::Node::Kind::scalar || n.quoted || n.scalar.empty()) {
    error(n, path, fmt::format("expected a number, got {}", yaml::describe_kind(n)));
    return std::nullopt;
  }
  double value = 0;
  const auto* end = n.scalar.data() + n.scalar.size();
  const auto [ptr, ec] = std::from_chars(n.scalar.data(), end, value);
  if (ec != std::errc{} || ptr != end || !std::isfinite(value)) {
    error(n, path, fmt::format("expected a number, got {}", yaml::describe_kind(n)));
    return std::nullopt;
  }
  if (value < min || value > max) {
    error(n, path, fmt::format("value {} is out of range {}..{}", n.scalar, min, max));
    return std::nullopt;
  }
  return value;
}

std::optional<std::string> Context::string(const yaml::Node& n, std::string_view path) {
  if (n.kind != yaml::Node::Kind::scalar) {
    error(n, path, fmt::format("expected a string, got {}", yaml::describe_kind(n)));
    return std::nullopt;
  }
  return n.scalar;
}

std::optional<std::string> Context::one_of(const yaml::Node& n, std::string_view path,
                                           std::span<const std::string_view> allowed) {
  auto value = string(n, path);
  if (!value) return std::nullopt;
  for (auto a : allowed) {
    if (*value == a) return value;
  }
  std::string message =
      fmt::format("unknown value '{}'; expected {}", *value, join_alternatives(allowed));
  if (auto guess = closest_match(*value, allowed)) {
    message += fmt::format(" (did you mean '{}'?)", *guess);
  }
  error(n, path, std::move(message));
  return std::nullopt;
}

bool is_identifier(std::string_view s) {
  const auto ok_char = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  };
  return !s.empty() && s.size() <= 32 && s[0] != '_' && s[0] != '-' &&
         std::all_of(s.begin(), s.end(), ok_char);
}

std::optional<std::string> Context::identifier(const yaml::Node& n, std::string_view path) {
  auto value = string(n, path);
  if (!value) return std::nullopt;
  const auto& s = *value;
  if (!is_identifier(s)) {
    error(n, path,
          fmt::format("'{}' is not a valid name; use 1 to 32 of a-z 0-9 _ -, starting with a "
                      "letter or digit",
                      s));
    return std::nullopt;
  }
  return value;
}

bool Context::is_map(const yaml::Node& n, std::string_view path) {
  if (n.kind == yaml::Node::Kind::map) return true;
  error(n, path, fmt::format("expected a mapping, got {}", yaml::describe_kind(n)));
  return false;
}

bool Context::is_sequence(const yaml::Node& n, std::string_view path) {
  if (n.kind == yaml::Node::Kind::sequence) return true;
  error(n, path, fmt::format("expected a sequence, got {}", yaml::describe_kind(n)));
  return false;
}

std::vector<std::string> Context::command(const yaml::Node& n, std::string_view path,
                                          const std::string& relative_to) {
  std::vector<std::string> words;
  if (!is_sequence(n, path)) return words;
  if (n.items.empty()) {
    error(n, path, "give the program and its arguments, e.g. [./my-worker]");
    return words;
  }
  for (std::size_t i = 0; i < n.items.size(); ++i) {
    auto word = string(n.items[i], index_path(path, i));
    if (!word) continue;
    if (word->empty()) {
      error(n.items[i], index_path(path, i), "an empty word");
      continue;
    }
    words.push_back(std::move(*word));
  }
  if (words.empty()) return words;
  std::string& program = words.front();
  if (program.find('/') != std::string::npos && program.front() != '/') {
    program = std::filesystem::absolute(std::filesystem::path(relative_to) / program)
                  .lexically_normal()
                  .string();
  }
  return words;
}

Fields::Fields(Context& ctx, const yaml::Node& map, std::string path,
               std::span<const std::string_view> known)
    : ctx_(ctx), map_(map), path_(std::move(path)), known_(known), valid_(ctx.is_map(map, path_)) {}

Fields::~Fields() {
  if (!valid_) return;
  for (const auto& entry : map_.entries) {
    const auto& key = entry.key.scalar;
    if (std::find(known_.begin(), known_.end(), key) != known_.end()) continue;
    std::string message = fmt::format("unknown key '{}'", key);
    if (auto guess = closest_match(key, known_)) {
      message += fmt::format("; did you mean '{}'?", *guess);
    } else {
      message += fmt::format("; expected one of {}", join_alternatives(known_));
    }
    ctx_.error(entry.key, join_path(path_, key), std::move(message));
  }
}

const yaml::Node* Fields::optional(std::string_view key) {
  return valid_ ? map_.find(key) : nullptr;
}

const yaml::Node* Fields::required(std::string_view key) {
  if (!valid_) return nullptr;
  const auto* node = map_.find(key);
  if (!node) ctx_.error(map_, path_, fmt::format("missing required key '{}'", key));
  return node;
}

std::string Fields::path(std::string_view key) const { return join_path(path_, key); }

}  // namespace jbench::decode
