#include "jbench/oracle/instantiate.h"

#include <array>
#include <cctype>
#include <filesystem>
#include <map>
#include <string_view>

#include "jbench/common/random.h"
#include "jbench/oracle/sql_lexer.h"

namespace jbench::oracle {

namespace {

using Names = std::map<std::string, std::string>;  // lower-case name -> its seeded name

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The statement's tokens without spaces and comments.
std::vector<SqlToken> words_of(std::string_view sql) {
  std::vector<SqlToken> out;
  for (const SqlToken& t : lex_sql(sql)) {
    if (t.kind != TokenKind::space) out.push_back(t);
  }
  return out;
}

std::string text_of(std::string_view sql, const SqlToken& t) {
  return std::string(sql.substr(t.begin, t.end - t.begin));
}

// A name token's text without its quotes.
std::string bare(std::string_view sql, const SqlToken& t) {
  const std::string s = text_of(sql, t);
  return t.kind == TokenKind::quoted_name && s.size() >= 2 ? s.substr(1, s.size() - 2) : s;
}

// The columns of CREATE TABLE name(...): the first word of each element at depth 1 that is not
// a table constraint.
void add_columns(std::string_view sql, const std::vector<SqlToken>& w, std::size_t open,
                 std::vector<std::string>& out) {
  static constexpr std::array<std::string_view, 5> kConstraints = {"constraint", "primary",
                                                                   "unique", "check", "foreign"};
  int depth = 0;
  bool element_start = false;
  for (std::size_t i = open; i < w.size(); ++i) {
    const std::string t = text_of(sql, w[i]);
    if (t == "(" && ++depth == 1) element_start = true;
    if (t == "(") continue;
    if (t == ")" && --depth == 0) return;
    if (t == "," && depth == 1) {
      element_start = true;
      continue;
    }
    if (element_start && depth == 1) {
      element_start = false;
      const bool name = w[i].kind == TokenKind::word || w[i].kind == TokenKind::quoted_name;
      const std::string n = lower(bare(sql, w[i]));
      if (name && std::find(kConstraints.begin(), kConstraints.end(), n) == kConstraints.end()) {
        out.push_back(n);
      }
    }
  }
}

// The names one statement creates: CREATE [TEMP] TABLE|INDEX|VIEW [IF NOT EXISTS] name, and a
// table's columns.
void created_names(std::string_view sql, std::vector<std::string>& out) {
  const std::vector<SqlToken> w = words_of(sql);
  if (w.empty() || !is_word(sql, w[0], "create")) return;
  std::size_t i = 1;
  while (i < w.size() && (is_word(sql, w[i], "temp") || is_word(sql, w[i], "temporary") ||
                          is_word(sql, w[i], "unique"))) {
    ++i;
  }
  if (i >= w.size()) return;
  const bool table = is_word(sql, w[i], "table");
  if (!table && !is_word(sql, w[i], "index") && !is_word(sql, w[i], "view")) return;
  ++i;
  if (i + 2 < w.size() && is_word(sql, w[i], "if")) i += 3;  // IF NOT EXISTS
  if (i >= w.size()) return;
  out.push_back(lower(bare(sql, w[i])));
  if (table && i + 1 < w.size() && text_of(sql, w[i + 1]) == "(") add_columns(sql, w, i + 1, out);
}

// `name` with four letters drawn from the seed and the name itself: the same for one seed in
// every record and every file.
std::string seeded(const std::string& name, std::uint64_t seed) {
  SplitMix64 rng(mix64(seed ^ fnv1a64(name)));
  static constexpr std::string_view kLetters = "abcdefghjkmnpqrstuvwxyz";
  std::string out = name + "_";
  for (int k = 0; k < 4; ++k) out += kLetters[rng.below(kLetters.size())];
  return out;
}

std::string renamed(const std::string& sql, const Names& names) {
  std::string out;
  for (const SqlToken& t : lex_sql(sql)) {
    const bool name = t.kind == TokenKind::word || t.kind == TokenKind::quoted_name;
    const auto it = name ? names.find(lower(bare(sql, t))) : names.end();
    if (it == names.end()) {
      out += text_of(sql, t);
    } else if (t.kind == TokenKind::quoted_name) {
      out += sql[t.begin] + it->second + sql[t.end - 1];
    } else {
      out += it->second;
    }
  }
  return out;
}

}  // namespace

Corpus instantiate_corpus(const Corpus& corpus, std::uint64_t seed) {
  std::vector<std::string> created;
  for (const Record& r : corpus.records) created_names(r.sql, created);
  Names names;
  for (const std::string& n : created) names.emplace(n, seeded(n, seed));
  Corpus out = corpus;
  const std::filesystem::path file(corpus.file);
  out.file = (file.parent_path() /
              (file.stem().string() + ".seed-" + std::to_string(seed) + file.extension().string()))
                 .string();
  for (Record& r : out.records) {
    r.where.file = out.file;
    r.sql = renamed(r.sql, names);
    if (r.unlimited) r.unlimited->sql = renamed(r.unlimited->sql, names);
  }
  return out;
}

}  // namespace jbench::oracle
