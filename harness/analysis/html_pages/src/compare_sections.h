// The sections of the compare page made from its rows (compare_rows_html.cpp); compare_html.cpp
// puts them after the header and the list of what was not compared.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace jbench::html_pages {

// One forest plot per metric (in the order the rows first name it) of each cell's ratio of
// medians and its interval, the point coloured by the row's verdict.
std::string ratio_plots_section(const nlohmann::json& rows);

// Every row: n, the medians, the ratio and interval, p, q, the detectable change, the noise
// floor and the verdict, with why an unknown is unknown and the repetitions that would settle it.
// Each <tr> carries data-cell, data-metric and data-verdict. `report` gives the FDR and threshold
// the explanation names.
std::string rows_table_section(const nlohmann::json& report);

// The class for a row's verdict: regressed, improved, same or unknown; "unstated" for anything
// else (the class never comes from the document).
std::string_view verdict_class(const nlohmann::json& row);

}  // namespace jbench::html_pages
