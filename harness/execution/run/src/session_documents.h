// The documents of a session's bundle besides the raw records: the manifest, each run.json,
// provenance. Private to jbench::run.
#pragma once

#include <sys/types.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "datasets.h"
#include "jbench/plan/plan.h"
#include "run_one.h"

namespace jbench::run {

class SessionDocuments {
 public:
  SessionDocuments(const Plan& plan, std::string bundle_name, std::vector<std::string> worker);

  // `capabilities`: the session's probe (capabilities.json), from which the mode manifest says
  // which modes can be what they say here.
  void started(const nlohmann::json& capabilities, bool alloc_library_built);
  nlohmann::json run_document(std::size_t index, const std::string& id, const RunRecord& record,
                              const BuiltDataset& dataset) const;
  void run_finished(std::size_t index, const std::string& id, const std::string& status,
                    const std::string& reason, const nlohmann::json& summary);
  void run_not_run(std::size_t index, const std::string& id, const std::string& reason);
  void finished(bool interrupted, nlohmann::json datasets);

  nlohmann::json manifest() const;
  bool all_runs_ok() const;
  // After finished(): a sentence per axis value the plan meant to measure that has no ok run.
  std::vector<std::string> unmeasured_values() const;

 private:
  nlohmann::json run_entry(std::size_t index, const std::string& id) const;
  nlohmann::json run_values(std::size_t index) const;  // axis -> label, the trace mode included
  nlohmann::json workload_json() const;

  const Plan& plan_;
  std::string bundle_name_;
  std::vector<std::string> worker_;
  nlohmann::json manifest_;
  nlohmann::json runs_ = nlohmann::json::array();
};

// provenance/build.json: this jbench's version, source revision, compiler and libraries.
nlohmann::json build_provenance();

}  // namespace jbench::run
