// What every page shares around its sections: the <head> (policy, the error-recorder script,
// the stylesheet), the note that a document does not say it is what the page expects, and the
// outcome banner of a comparison or a history (their `outcome`, `exit_code` and `summary`).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace jbench::html_pages {

// From <!DOCTYPE html> to the opening <body>, with `title` (escaped) in <title>.
std::string page_head(std::string_view title);

// A note banner when document["schema"] is not `expected`, naming what it says instead; ""
// when it is. What could be read is shown either way.
std::string schema_note(const nlohmann::json& document, std::string_view expected);

// The outcome sentence and exit code as the page's most prominent line: a <p id="outcome">
// with the class of the outcome (regression, no_regression, no_verdict, refused; "unstated"
// for anything else) and data-outcome / data-exit-code attributes for programs.
std::string outcome_banner(const nlohmann::json& document);

}  // namespace jbench::html_pages
