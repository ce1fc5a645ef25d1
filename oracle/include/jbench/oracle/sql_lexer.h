// Just enough of SQLite's lexical rules to find parameters (and, for the tests' cache fixtures,
// scalar subqueries) in a statement without mistaking text inside a string, a quoted name or a
// comment for SQL. Tokens only: the oracle never parses SQL's grammar.
//
//   for (const SqlToken& t : lex_sql(sql))
//     if (t.kind == TokenKind::parameter) ...   // ?3 has parameter_index 3
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/oracle/result_set.h"

namespace jbench::oracle {

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

// `sql` with every ?N replaced by the SQL literal of params[N-1], for an engine that takes no
// bound parameters. nullopt when the statement uses another kind of parameter (?, :a, @a, $a)
// or a number past params' end.
std::optional<std::string> inline_parameters(std::string_view sql,
                                             const std::vector<Value>& params);

}  // namespace jbench::oracle
