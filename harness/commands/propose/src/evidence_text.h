// The evidence of a proposal for a terminal and for report.txt: what was proposed, the oracle
// gate, the sessions, the decision cell by cell, the counters, and the verdict with its reasons.
// Read from the record and the comparison document only, as a later reader would have them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace jbench::propose {

std::string evidence_text(const nlohmann::json& record, const nlohmann::json& comparison);

}  // namespace jbench::propose
