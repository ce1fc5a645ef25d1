// The attribution report as text (what `jbench report` prints) and as JSON (schema
// jbench.attribution_report, manifests/attribution-report.schema.json; the HTML page is rendered
// from it). Pure.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "jbench/attribution/analysis.h"
#include "jbench/common/table.h"

namespace jbench::attribution {

std::string attribution_to_text(const AttributionReport& report);
nlohmann::json attribution_to_json(const AttributionReport& report);

// The overview (docs/report.md, "Overview") as one row per cell and traced mode, in the report's
// order: the cell, its axis values, the mode, the largest part and the rest as percentages with
// their interval as two columns, the observer's cost as a ratio with its interval, and whether the
// bundle is valid (a report of an invalid one says so on every row).
Table overview_table(const AttributionReport& report);

}  // namespace jbench::attribution
