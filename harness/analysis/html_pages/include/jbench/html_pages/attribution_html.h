// The attribution report as one self-contained HTML page, for `jbench report BUNDLE --html FILE`.
//
// The page carries everything it shows: inline CSS, inline SVG plots, and one inline script that
// only records errors (a Content-Security-Policy in the page forbids every fetch, so it views the
// same offline, from an archive, or attached to a CI run). Every string taken from the report is
// HTML-escaped: paths and names come from foreign bundles. Fields the report leaves null or
// empty are rendered as what they mean ("no interval (1 repetition)", "not enough evidence"),
// never as "null"; a document of another shape renders what it can and says so.
//
//   const std::string page = jbench::html_pages::attribution_to_html(report_json);
//   write_file(path, page);  // the caller does the I/O
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace jbench::html_pages {

// Pure: no I/O, no clock; the same document always gives the same page.
std::string attribution_to_html(const nlohmann::json& report);

}  // namespace jbench::html_pages
