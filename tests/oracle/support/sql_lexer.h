// Just enough of SQLite's lexical rules for the cache fixtures to find scalar subqueries and
// parameters in a statement without mistaking text inside a string, a quoted name or a comment
// for SQL. Test support only: the oracle itself never parses SQL.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace jbench::oracle::testing {

enum class TokenKind { word, string, quoted_name, number, parameter, punct, space };

struct SqlToken {
  TokenKind kind = TokenKind::space;
  std::size_t begin = 0;  // byte offsets into the statement
  std::size_t end = 0;
  // For a parameter: ?N gives N; bare ?, :name, @name and $name give 0.
  std::size_t parameter_index = 0;
};

// Spaces and comments become `space` tokens; an unterminated string runs to the end.
std::vector<SqlToken> lex_sql(std::string_view sql);

// Whether `token`'s text equals `word`, ignoring ASCII case.
bool is_word(std::string_view sql, const SqlToken& token, std::string_view word);

}  // namespace jbench::oracle::testing
