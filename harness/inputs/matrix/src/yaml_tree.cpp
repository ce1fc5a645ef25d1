#include "jbench/matrix/yaml_tree.h"

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <sstream>

namespace jbench::yaml {
namespace {

// Thrown from inside the event handler to stop yaml-cpp at the first fatal problem (a document
// too deep or too large, an alias): continuing would only do the work those limits prevent.
struct Abort {};

std::uint32_t one_based(int zero_based) {
  return zero_based < 0 ? 0 : static_cast<std::uint32_t>(zero_based) + 1;
}

class TreeBuilder final : public YAML::EventHandler {
 public:
  TreeBuilder(const std::string& file, std::vector<Diagnostic>& diagnostics)
      : file_(file), diagnostics_(diagnostics) {}

  Node take_root() { return std::move(root_); }
  bool saw_document() const { return documents_ > 0; }

  void OnDocumentStart(const YAML::Mark& mark) override {
    ++documents_;
    document_line_ = one_based(mark.line);
  }
  std::uint32_t document_line() const { return document_line_; }
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    check_anchor(mark, anchor);
    add(make(Node::Kind::null, mark));
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override {
    fatal(mark, "aliases (*name) are not supported in matrix files; write the value out");
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    check_anchor(mark, anchor);
    check_tag(mark, tag);
    Node node = make(Node::Kind::scalar, mark);
    node.scalar = value;
    node.quoted = (tag == "!");  // yaml-cpp tags quoted scalars "!" and plain ones "?"
    add(std::move(node));
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(Node::Kind::sequence, mark, tag, anchor);
  }
  void OnSequenceEnd() override { close(); }

  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(Node::Kind::map, mark, tag, anchor);
  }
  void OnMapEnd() override { close(); }

 private:
  // A map under construction holds a pending key until its value arrives.
  struct Frame {
    Node node;
    bool has_pending_key = false;
    Node pending_key;
  };

  Node make(Node::Kind kind, const YAML::Mark& mark) {
    if (++node_count_ > kMaxNodes) {
      fatal(mark, fmt::format("the document has more than {} nodes", kMaxNodes));
    }
    Node node;
    node.kind = kind;
    node.line = one_based(mark.line);
    node.column = one_based(mark.column);
    return node;
  }

  void open(Node::Kind kind, const YAML::Mark& mark, const std::string& tag,
            YAML::anchor_t anchor) {
    check_anchor(mark, anchor);
    check_tag(mark, tag);
    if (stack_.size() >= kMaxDepth) {
      fatal(mark, fmt::format("nesting deeper than {} levels", kMaxDepth));
    }
    stack_.push_back(Frame{make(kind, mark), false, {}});
  }

  void close() {
    Node done = std::move(stack_.back().node);
    stack_.pop_back();
    add(std::move(done));
  }

  void add(Node node) {
    if (stack_.empty()) {
      root_ = std::move(node);
      return;
    }
    Frame& top = stack_.back();
    if (top.node.kind == Node::Kind::sequence) {
      top.node.items.push_back(std::move(node));
      return;
    }
    if (!top.has_pending_key) {
      accept_key(top, std::move(node));
      return;
    }
    top.has_pending_key = false;
    if (top.pending_key.kind == Node::Kind::null) return;  // rejected key: drop the entry
    top.node.entries.push_back(MapEntry{std::move(top.pending_key), std::move(node)});
  }

  void accept_key(Frame& top, Node key) {
    top.has_pending_key = true;
    if (key.kind != Node::Kind::scalar) {
      error(key.line, key.column, "a mapping key must be a plain string");
      top.pending_key = Node{};  // null marks "drop this entry"
      return;
    }
    for (const auto& entry : top.node.entries) {
      if (entry.key.scalar == key.scalar) {
        error(key.line, key.column,
              fmt::format("duplicate key '{}' (first at line {}, column {})", key.scalar,
                          entry.key.line, entry.key.column));
        top.pending_key = Node{};
        return;
      }
    }
    top.pending_key = std::move(key);
  }

  void check_anchor(const YAML::Mark& mark, YAML::anchor_t anchor) {
    if (anchor != YAML::NullAnchor) {
      error(one_based(mark.line), one_based(mark.column),
            "anchors (&name) are not supported in matrix files; write the value out");
    }
  }

  void check_tag(const YAML::Mark& mark, const std::string& tag) {
    if (!tag.empty() && tag != "?" && tag != "!") {
      error(one_based(mark.line), one_based(mark.column),
            fmt::format("explicit tags ('{}') are not supported in matrix files", tag));
    }
  }

  void error(std::uint32_t line, std::uint32_t column, std::string message) {
    diagnostics_.push_back(Diagnostic{{file_, line, column}, "", std::move(message)});
  }

  [[noreturn]] void fatal(const YAML::Mark& mark, std::string message) {
    error(one_based(mark.line), one_based(mark.column), std::move(message));
    throw Abort{};
  }

  const std::string& file_;
  std::vector<Diagnostic>& diagnostics_;
  std::vector<Frame> stack_;
  Node root_;
  std::size_t node_count_ = 0;
  int documents_ = 0;
  std::uint32_t document_line_ = 0;
};

}  // namespace

const Node* Node::find(std::string_view key) const {
  for (const auto& entry : entries) {
    if (entry.key.scalar == key) return &entry.value;
  }
  return nullptr;
}

std::string describe_kind(const Node& node) {
  switch (node.kind) {
    case Node::Kind::null:
      return "null";
    case Node::Kind::scalar:
      return node.quoted ? "a quoted string" : fmt::format("'{}'", node.scalar);
    case Node::Kind::sequence:
      return "a sequence";
    case Node::Kind::map:
      return "a mapping";
  }
  return "?";
}

Tree load_yaml_tree(std::string_view text, const std::string& file) {
  Tree tree;
  std::istringstream stream{std::string(text)};
  TreeBuilder builder(file, tree.diagnostics);
  try {
    YAML::Parser parser(stream);
    if (!parser.HandleNextDocument(builder) || !builder.saw_document()) {
      tree.diagnostics.push_back({{file, 0, 0}, "", "the file holds no YAML document"});
      return tree;
    }
    tree.root = builder.take_root();
    // A second document would be silently ignored by a reader that takes the first. Its own
    // problems do not matter: that it exists is the error.
    std::vector<Diagnostic> ignored;
    TreeBuilder extra(file, ignored);
    try {
      parser.HandleNextDocument(extra);
    } catch (const Abort&) {
    } catch (const YAML::Exception&) {
    }
    if (extra.saw_document()) {
      tree.diagnostics.push_back({{file, extra.document_line(), 1},
                                  "",
                                  "the file holds more than one YAML document; keep only one"});
    }
  } catch (const Abort&) {
    // The diagnostic is already recorded.
  } catch (const YAML::Exception& e) {
    tree.diagnostics.push_back({{file, one_based(e.mark.line), one_based(e.mark.column)},
                                "",
                                fmt::format("YAML syntax: {}", e.msg)});
  }
  return tree;
}

}  // namespace jbench::yaml
