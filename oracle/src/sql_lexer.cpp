#include "jbench/oracle/sql_lexer.h"

#include <cctype>

namespace jbench::oracle {

namespace {

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

// The end of a quoted run that starts at `i` with `close` as its closing character; a doubled
// closing character is an escaped one.
std::size_t quoted_end(std::string_view s, std::size_t i, char close) {
  for (std::size_t j = i + 1; j < s.size(); ++j) {
    if (s[j] != close) continue;
    if (close != ']' && j + 1 < s.size() && s[j + 1] == close) {
      ++j;
      continue;
    }
    return j + 1;
  }
  return s.size();
}

}  // namespace

std::vector<SqlToken> lex_sql(std::string_view s) {
  std::vector<SqlToken> out;
  std::size_t i = 0;
  while (i < s.size()) {
    SqlToken t;
    t.begin = i;
    char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    } else if (s.substr(i, 2) == "--") {
      std::size_t nl = s.find('\n', i);
      i = nl == std::string_view::npos ? s.size() : nl + 1;
    } else if (s.substr(i, 2) == "/*") {
      std::size_t close = s.find("*/", i + 2);
      i = close == std::string_view::npos ? s.size() : close + 2;
    } else if (c == '\'') {
      t.kind = TokenKind::string;
      i = quoted_end(s, i, '\'');
    } else if (c == '"' || c == '`' || c == '[') {
      t.kind = TokenKind::quoted_name;
      i = quoted_end(s, i, c == '[' ? ']' : c);
    } else if (c == '?' || c == ':' || c == '@' || c == '$') {
      t.kind = TokenKind::parameter;
      ++i;
      std::size_t digits = i;
      while (i < s.size() &&
             (c == '?' ? std::isdigit(static_cast<unsigned char>(s[i])) : name_char(s[i]))) {
        ++i;
      }
      if (c == '?' && i > digits) {
        for (std::size_t d = digits; d < i; ++d) {
          t.parameter_index = t.parameter_index * 10 + static_cast<std::size_t>(s[d] - '0');
        }
      }
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && i + 1 < s.size() &&
                std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      t.kind = TokenKind::number;
      while (i < s.size() &&
             (name_char(s[i]) || s[i] == '.' ||
              ((s[i] == '+' || s[i] == '-') && (s[i - 1] == 'e' || s[i - 1] == 'E')))) {
        ++i;
      }
    } else if (name_char(c)) {
      t.kind = TokenKind::word;
      // x'00ff' is a blob literal, not the word x.
      if ((c == 'x' || c == 'X') && i + 1 < s.size() && s[i + 1] == '\'') {
        t.kind = TokenKind::string;
        i = quoted_end(s, i + 1, '\'');
      } else {
        while (i < s.size() && name_char(s[i])) ++i;
      }
    } else {
      t.kind = TokenKind::punct;
      ++i;
    }
    t.end = i;
    out.push_back(t);
  }
  return out;
}

bool is_word(std::string_view sql, const SqlToken& token, std::string_view word) {
  if (token.kind != TokenKind::word || token.end - token.begin != word.size()) return false;
  for (std::size_t k = 0; k < word.size(); ++k) {
    if (std::tolower(static_cast<unsigned char>(sql[token.begin + k])) !=
        std::tolower(static_cast<unsigned char>(word[k]))) {
      return false;
    }
  }
  return true;
}

std::optional<std::string> inline_parameters(std::string_view sql,
                                             const std::vector<Value>& params) {
  std::string out;
  std::size_t copied = 0;
  for (const SqlToken& t : lex_sql(sql)) {
    if (t.kind != TokenKind::parameter) continue;
    if (t.parameter_index == 0 || t.parameter_index > params.size()) return std::nullopt;
    out.append(sql.substr(copied, t.begin - copied));
    // Parenthesised: -5 after a minus sign, or a literal before COLLATE, stays one operand.
    out += "(" + to_sql_literal(params[t.parameter_index - 1]) + ")";
    copied = t.end;
  }
  out.append(sql.substr(copied));
  return out;
}

}  // namespace jbench::oracle
