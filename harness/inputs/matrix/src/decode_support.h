// Helpers the matrix decoder uses to read a yaml::Node strictly and report located errors.
// Private to jbench::matrix.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/common/diagnostic.h"
#include "jbench/matrix/yaml_tree.h"

namespace jbench::decode {

// A name usable in ids and paths: [a-z0-9][a-z0-9_-]{0,31}.
bool is_identifier(std::string_view s);

class Context {
 public:
  Context(std::string file, std::vector<Diagnostic>& out) : file_(std::move(file)), out_(out) {}

  void error(const yaml::Node& at, std::string_view path, std::string message);
  SourceLocation where(const yaml::Node& at) const;
  const std::string& file() const { return file_; }
  std::size_t error_count() const { return out_.size(); }

  // Typed reads: each reports its own error and returns nullopt when the node does not fit.
  std::optional<std::uint64_t> integer(const yaml::Node& n, std::string_view path,
                                       std::uint64_t min, std::uint64_t max);
  std::optional<double> number(const yaml::Node& n, std::string_view path, double min, double max);
  std::optional<std::string> string(const yaml::Node& n, std::string_view path);
  // A string that must be one of `allowed` (suggests the closest on a typo).
  std::optional<std::string> one_of(const yaml::Node& n, std::string_view path,
                                    std::span<const std::string_view> allowed);
  // A name usable in ids and paths: [a-z0-9][a-z0-9_-]{0,31}.
  std::optional<std::string> identifier(const yaml::Node& n, std::string_view path);
  bool is_map(const yaml::Node& n, std::string_view path);
  bool is_sequence(const yaml::Node& n, std::string_view path);
  // A command: a non-empty sequence of non-empty strings, the program first. A program path with
  // a '/' is made absolute against `relative_to` (a bare name is looked up on PATH when it runs).
  std::vector<std::string> command(const yaml::Node& n, std::string_view path,
                                   const std::string& relative_to);

 private:
  std::string file_;
  std::vector<Diagnostic>& out_;
};

// Reads the keys of one mapping; every key must be taken or it is reported as unknown, with the
// closest known key suggested.
class Fields {
 public:
  Fields(Context& ctx, const yaml::Node& map, std::string path,
         std::span<const std::string_view> known);
  ~Fields();  // reports unknown keys
  Fields(const Fields&) = delete;
  Fields& operator=(const Fields&) = delete;

  const yaml::Node* optional(std::string_view key);
  const yaml::Node* required(std::string_view key);  // reports a missing key
  std::string path(std::string_view key) const;      // "parent.key"
  bool valid() const { return valid_; }              // the node was a mapping

 private:
  Context& ctx_;
  const yaml::Node& map_;
  std::string path_;
  std::span<const std::string_view> known_;
  bool valid_;
};

// A matrix file's text (run or oracle) checked (check_matrix_text) and loaded as a tree; false
// with the diagnostics in `out` when it is not acceptable.
bool load_matrix_tree(std::string_view text, const std::string& file, yaml::Tree& tree,
                      std::vector<Diagnostic>& out);

std::string join_path(std::string_view parent, std::string_view key);
std::string index_path(std::string_view parent, std::size_t index);

}  // namespace jbench::decode
