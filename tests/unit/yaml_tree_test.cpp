#include "jbench/matrix/yaml_tree.h"

#include <gtest/gtest.h>

namespace jbench::yaml {
namespace {

std::string first_error(const Tree& t) {
  return t.diagnostics.empty() ? "" : t.diagnostics.front().message;
}

TEST(YamlTree, keeps_locations_and_quoting) {
  const auto t = load_yaml_tree("a: 1\nb:\n  - \"2\"\n  - x\n", "f.yaml");
  ASSERT_TRUE(t.ok());
  const Node* b = t.root.find("b");
  ASSERT_NE(b, nullptr);
  ASSERT_EQ(b->items.size(), 2u);
  EXPECT_TRUE(b->items[0].quoted);
  EXPECT_FALSE(b->items[1].quoted);
  EXPECT_EQ(b->items[1].line, 4u);
  EXPECT_EQ(b->items[1].column, 5u);
  EXPECT_EQ(t.root.find("a")->line, 1u);
}

TEST(YamlTree, rejects_duplicate_keys_with_both_positions) {
  const auto t = load_yaml_tree("a: 1\nb: 2\na: 3\n", "f.yaml");
  ASSERT_EQ(t.diagnostics.size(), 1u);
  EXPECT_EQ(t.diagnostics[0].where.line, 3u);
  EXPECT_EQ(first_error(t), "duplicate key 'a' (first at line 1, column 1)");
}

TEST(YamlTree, rejects_anchors_and_aliases) {
  const auto t = load_yaml_tree("a: &x [1, 2]\nb: *x\n", "f.yaml");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(first_error(t).find("anchors"), std::string::npos);
  bool alias = false;
  for (const auto& d : t.diagnostics) alias |= d.message.find("aliases") != std::string::npos;
  EXPECT_TRUE(alias);
}

TEST(YamlTree, stops_a_billion_laughs_document_at_its_first_alias) {
  std::string doc = "a: &a [x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'j'; ++c) {
    const char prev = static_cast<char>(c - 1);
    doc += std::string(1, c) + ": &" + c + " [*" + prev + ", *" + prev + ", *" + prev + ", *" +
           prev + ", *" + prev + "]\n";
  }
  const auto t = load_yaml_tree(doc, "f.yaml");
  EXPECT_FALSE(t.ok());
}

TEST(YamlTree, refuses_nesting_past_the_limit) {
  const std::string deep = std::string(kMaxDepth + 5, '[') + std::string(kMaxDepth + 5, ']');
  const auto t = load_yaml_tree("a: " + deep + "\n", "f.yaml");
  ASSERT_EQ(t.diagnostics.size(), 1u);
  EXPECT_NE(first_error(t).find("nesting deeper than"), std::string::npos);
}

TEST(YamlTree, refuses_very_deep_nesting_without_crashing) {
  const std::string deep = std::string(100000, '[');
  const auto t = load_yaml_tree(deep, "f.yaml");
  EXPECT_FALSE(t.ok());
}

TEST(YamlTree, rejects_explicit_tags_and_complex_keys) {
  EXPECT_FALSE(load_yaml_tree("a: !!str 5\n", "f.yaml").ok());
  EXPECT_FALSE(load_yaml_tree("? [1, 2]\n: x\n", "f.yaml").ok());
}

TEST(YamlTree, rejects_a_second_document) {
  const auto t = load_yaml_tree("a: 1\n---\nb: 2\n", "f.yaml");
  ASSERT_EQ(t.diagnostics.size(), 1u);
  EXPECT_EQ(t.diagnostics[0].where.line, 2u);
}

TEST(YamlTree, reports_syntax_errors_with_a_position) {
  const auto t = load_yaml_tree("a: [1, 2\nb: 3\n", "f.yaml");
  ASSERT_EQ(t.diagnostics.size(), 1u);
  EXPECT_GT(t.diagnostics[0].where.line, 0u);
  EXPECT_NE(first_error(t).find("YAML syntax"), std::string::npos);
}

TEST(YamlTree, reports_an_empty_file) {
  EXPECT_EQ(first_error(load_yaml_tree("", "f.yaml")), "the file holds no YAML document");
  EXPECT_EQ(first_error(load_yaml_tree("# only a comment\n", "f.yaml")),
            "the file holds no YAML document");
}

}  // namespace
}  // namespace jbench::yaml
