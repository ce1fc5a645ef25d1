// The page's stylesheet, inlined in <head>: the page fetches nothing, fonts included (it uses
// the viewer's own sans-serif).
#pragma once

#include <string_view>

namespace jbench::html_pages {

std::string_view page_css();

}  // namespace jbench::html_pages
