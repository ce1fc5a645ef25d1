// HTML escaping: the one way a string from a report reaches the page. Every such string is
// foreign (paths, cell and span names come from bundles someone else made), so it is escaped
// for both text and double-quoted attribute values with the same function.
#pragma once

#include <string>
#include <string_view>

namespace jbench::html_pages {

// Escapes & < > " ' so that the result can stand in element text, in a double-quoted attribute
// value, and in SVG text alike. NUL bytes become U+FFFD, as an HTML parser would make them.
std::string escape(std::string_view text);

}  // namespace jbench::html_pages
