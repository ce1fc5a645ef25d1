// The I/O-fault loop and the crash states of a recorded run (jbench::oracle_faultvfs) as
// sections of the record.
#include <filesystem>
#include <ostream>

#include "jbench/oracle/crash_states.h"
#include "jbench/oracle/fault_loop.h"
#include "sections.h"

namespace jbench::oracle_pass {

nlohmann::json fault_section(const OracleFaultSpec& spec, std::uint64_t seed,
                             const PassOptions& o) {
  oracle::FaultLoopConfig config;
  config.seed = seed;
  config.synchronous = spec.synchronous;
  config.journal_modes.clear();
  for (const std::string& m : spec.journal_modes) {
    config.journal_modes.push_back(*oracle::fault_journal_mode_from_string(m));
  }
  std::string dir = (std::filesystem::path(o.work_dir) / "faults").string();
  auto verdict = oracle::run_fault_loop(config, dir);
  if (!verdict) {
    return {{"status", kFailed},
            {"what", "the fault loop could not run: " + verdict.error().message}};
  }
  nlohmann::json j = verdict->to_json();
  j["status"] = verdict->passed() ? kPassed : kFailed;
  if (o.log) {
    std::uint64_t visited = 0;
    for (const auto& mode : verdict->modes) {
      for (auto kind : oracle::kAllFaultKinds) visited += mode.visited_of(kind);
    }
    *o.log << "oracle: faults: " << visited << " faulted runs over every I/O point, "
           << j["status"].get<std::string>() << "\n";
  }
  return j;
}

nlohmann::json crash_state_section(const OracleCrashStateSpec& spec, std::uint64_t seed,
                                   const PassOptions& o) {
  nlohmann::json modes = nlohmann::json::array();
  bool passed = true;
  std::size_t states = 0;
  for (const std::string& m : spec.journal_modes) {
    if (o.should_stop && o.should_stop()) return {{"status", kInterrupted}};
    oracle::CrashStateConfig config;
    config.journal_mode = *oracle::fault_journal_mode_from_string(m);
    config.synchronous = spec.synchronous;
    config.transactions = spec.transactions;
    config.seed = seed;
    auto v = oracle::explore_crash_states(
        config, (std::filesystem::path(o.work_dir) / "crash-states").string());
    if (!v) {
      return {
          {"status", kFailed},
          {"what", "the crash states of " + m + " could not be explored: " + v.error().message}};
    }
    passed = passed && v->passed();
    states += v->states_explored;
    modes.push_back(v->to_json());
  }
  const char* status = passed ? kPassed : kFailed;
  if (o.log) *o.log << "oracle: crash states: " << states << " explored, " << status << "\n";
  return {{"status", status}, {"states_explored", states}, {"modes", std::move(modes)}};
}

}  // namespace jbench::oracle_pass
