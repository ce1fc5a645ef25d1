// The attribution report as text (what `jbench report` prints) and as JSON (schema
// jbench.attribution_report, manifests/attribution-report.schema.json; the HTML page is rendered
// from it). Pure.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "jbench/attribution/analysis.h"

namespace jbench::attribution {

std::string attribution_to_text(const AttributionReport& report);
nlohmann::json attribution_to_json(const AttributionReport& report);

}  // namespace jbench::attribution
