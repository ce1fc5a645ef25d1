// Writing an --html page (jbench report, compare, history): the whole file at once, beside its
// final name and renamed, so a reader never sees half a page and a failed write leaves none.
// Private to jbench::cli.
#pragma once

#include <string>
#include <string_view>

namespace jbench::cli {

// Writes `page` to `path`. On success, names it on stderr ("<what>: <path>") and returns true;
// on failure, says why in one line on stderr ("jbench: error: cannot write …") and returns false,
// leaving the caller to choose the exit code.
bool write_page(const std::string& path, const std::string& page, std::string_view what);

}  // namespace jbench::cli
