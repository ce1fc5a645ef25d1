// A history (a `jbench.history` document, docs/compare.md "History") as one self-contained HTML
// page, for `jbench history DIR --html FILE` and the nightly job.
//
// The page leads with the outcome, then each series (a cell × metric) as a line across the
// bundles with its change points marked (the ones for the worse highlighted, each with its
// revision range, before/after and ratio), then the bundles in order with the reason each gap
// is one. A bundle a series has no value for breaks its line: it is never drawn as a point.
// Made for a year of nightly bundles: one small circle per value, one polyline per unbroken run.
//
//   const std::string page = jbench::html_pages::history_to_html(history_json);
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace jbench::html_pages {

// Pure: no I/O, no clock; the same document always gives the same page.
std::string history_to_html(const nlohmann::json& history);

}  // namespace jbench::html_pages
