// Reading a rendered page as text in the tests: how often a piece of markup occurs, and whether
// the visible text carries what a field read carelessly would leave (null, nan, inf).
#pragma once

#include <cstddef>
#include <regex>
#include <string>

namespace jbench::test {

inline std::size_t occurrences(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = 0; (at = haystack.find(needle, at)) != std::string::npos;
       at += needle.size()) {
    ++n;
  }
  return n;
}

// The first text node of the page's <body> that says null, nan or inf as a word; "" when none
// does. (The <head>'s script may well say null: it is code, not something shown.)
inline std::string raw_value_in_text(const std::string& page) {
  static const std::regex kRaw(R"(\b(null|nan|NaN|inf|undefined)\b)");
  const std::size_t body = page.find("<body>");
  for (std::size_t at = body == std::string::npos ? 0 : body; at < page.size();) {
    const std::size_t open = page.find('>', at);
    if (open == std::string::npos) break;
    const std::size_t close = page.find('<', open);
    const std::string text = page.substr(open + 1, close - open - 1);
    if (std::regex_search(text, kRaw)) return text;
    if (close == std::string::npos) break;
    at = close;
  }
  return "";
}

}  // namespace jbench::test
