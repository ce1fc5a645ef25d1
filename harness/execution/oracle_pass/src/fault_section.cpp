// The I/O-fault loop (jbench::oracle_faultvfs) as a section of the record.
#include <filesystem>
#include <ostream>

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

}  // namespace jbench::oracle_pass
