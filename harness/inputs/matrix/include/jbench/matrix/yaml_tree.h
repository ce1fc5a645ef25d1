// A strict, located YAML tree: what the matrix decoder reads instead of yaml-cpp's Node.
//
// yaml-cpp's Node accepts duplicate keys silently, expands aliases (a "billion laughs" document
// becomes a huge traversal) and forgets whether a scalar was quoted. This loader builds its own
// tree from the parser's events so it can refuse all of that with a located diagnostic:
// duplicate keys, anchors and aliases, explicit tags, non-scalar keys, more than one document,
// nesting deeper than kMaxDepth and more than kMaxNodes nodes.
//
//   auto tree = load_yaml_tree(text, "matrices/x.yaml");
//   if (!tree.ok()) print(tree.diagnostics);
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/common/diagnostic.h"

namespace jbench::yaml {

inline constexpr std::size_t kMaxDepth = 32;
inline constexpr std::size_t kMaxNodes = 100'000;

struct MapEntry;

struct Node {
  enum class Kind : std::uint8_t { null, scalar, sequence, map };
  Kind kind = Kind::null;
  std::uint32_t line = 0;         // 1-based
  std::uint32_t column = 0;       // 1-based
  std::string scalar;             // Kind::scalar only
  bool quoted = false;            // a quoted scalar is always a string, never a number
  std::vector<Node> items;        // Kind::sequence only
  std::vector<MapEntry> entries;  // Kind::map only, in document order, keys unique

  // The value under `key`, or nullptr (maps only).
  const Node* find(std::string_view key) const;
};

struct MapEntry {
  Node key;  // always a scalar
  Node value;
};

struct Tree {
  Node root;
  std::vector<Diagnostic> diagnostics;  // empty when the document is acceptable
  bool ok() const { return diagnostics.empty(); }
};

// Parses one YAML document. `file` only labels the diagnostics.
Tree load_yaml_tree(std::string_view text, const std::string& file);

// "a mapping", "a sequence", "a string", "null" — for messages.
std::string describe_kind(const Node& node);

}  // namespace jbench::yaml
