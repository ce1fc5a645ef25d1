// A comparison (a `jbench.compare_report` document, docs/compare.md) as one self-contained HTML
// page, for `jbench compare BASE CANDIDATE --html FILE` and the nightly job.
//
// The page leads with the outcome and its exit code, then what was not compared and why
// (refusals, invalid bundles, build and settings differences, cells in one side only), then a
// forest plot of the ratio of medians and its interval per cell, one per metric, then the table
// of every row. The same head as the attribution page: inline CSS and SVG, the error-recording
// script, a policy that forbids every fetch. Every string from the document is escaped, and a
// field that is missing or of another type is shown as what it means, never as "null".
//
//   const std::string page = jbench::html_pages::comparison_to_html(compare_report_json);
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace jbench::html_pages {

// Pure: no I/O, no clock; the same document always gives the same page.
std::string comparison_to_html(const nlohmann::json& compare_report);

}  // namespace jbench::html_pages
