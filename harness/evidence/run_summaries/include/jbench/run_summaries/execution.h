// What execution delivered for each axis value, beside what the plan meant: the plan says a
// value is `measured` before anything ran; only runs can make that true. Pure: the runner writes
// the result into manifest.json (/execution) and the validator recomputes it from the run list.
//
//   nlohmann::json e = execution_states(manifest["plan"]["axes"], manifest["runs"]);
//   for (const auto& line : unmeasured_values(e)) std::cerr << line << '\n';
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace jbench {

// `plan_axes`: the plan's axes as plan_axes_to_json writes them ([{axis, values: [{value,
// state}]}]). `runs`: the manifest's run entries, each with `values` (axis -> label) and
// `status`. Per axis value: the plan's state, run counts by status, and the state execution
// delivered:
//   measured          the plan meant to measure it and at least one of its runs ended ok
//   attempted_failed  it was meant to be measured and ran, but no run of it ended ok
//   not_run           it was meant to be measured and none of its runs ran
//   planned / skipped / delegated   unchanged from the plan: nothing was meant to run
// with the first non-ok reason for the two failing states.
nlohmann::json execution_states(const nlohmann::json& plan_axes, const nlohmann::json& runs);

// One sentence per value the plan meant to measure that execution did not deliver.
std::vector<std::string> unmeasured_values(const nlohmann::json& execution);

}  // namespace jbench
