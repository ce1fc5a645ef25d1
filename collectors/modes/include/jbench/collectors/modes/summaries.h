// Every collector's summary of a run, computed from the run's raw files and run.json alone — the
// one function the run loop uses to write summary.json's "collectors" and the validator uses to
// recompute it.
//
//   nlohmann::json s = summarize_collectors("/bundle/runs/<id>", run_json);
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace jbench::collectors {

nlohmann::json summarize_collectors(const std::string& run_dir, const nlohmann::json& run);

}  // namespace jbench::collectors
