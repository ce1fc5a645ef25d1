// Text helpers for diagnostics: UTF-8 validation, trimming and "did you mean" suggestions.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace jbench {

// Offset of the first byte that does not belong to well-formed UTF-8 (overlong forms,
// surrogates and code points past U+10FFFF count as malformed), or nullopt if all is well.
std::optional<std::size_t> first_invalid_utf8(std::string_view bytes);

// `bytes` with every byte that does not belong to well-formed UTF-8 replaced by U+FFFD: for text
// that comes from the kernel or a target (a file name is any bytes) and must go into JSON.
std::string valid_utf8(std::string_view bytes);

// `text` without the spaces, tabs and line ends around it (a sysctl value, a /proc field).
std::string trim(std::string_view text);

// 1-based line and column of a byte offset (columns count bytes).
struct LineColumn {
  std::size_t line;
  std::size_t column;
};
LineColumn line_column_at(std::string_view text, std::size_t offset);

// Levenshtein distance: the insertions, deletions and substitutions that turn `a` into `b`.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word` by edit distance, if it is close enough to be a plausible typo.
std::optional<std::string> closest_match(std::string_view word,
                                         std::span<const std::string_view> candidates);

// `text` with `mark` before every line: a report of an invalid bundle says so on each line, so that
// no line quoted alone passes for evidence.
std::string mark_every_line(std::string_view text, std::string_view mark);

// "a, b or c" — for messages that list the accepted values.
std::string join_alternatives(std::span<const std::string_view> items);

}  // namespace jbench
