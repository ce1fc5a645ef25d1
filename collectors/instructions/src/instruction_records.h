// The raw file both backends of the instructions collector write (raw/instructions.events.jsonl,
// docs/events.md): a header naming the backend, one `instructions` record per worker and phase,
// a trailer. Shared by the callgrind and perf backends so a bundle reads the same either way.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "jbench/collectors/api/collector.h"
#include "jbench/common/result.h"

namespace jbench::collectors {

// An `instructions` record of worker `index` (process `m`) in `phase`: `figures` holds the
// counts as decimal strings ("instructions", and "allocations" where counted).
nlohmann::json instruction_record(const Member& m, std::size_t index, const std::string& phase,
                                  const nlohmann::json& figures);

// The facts of the collector's entry both backends state alike: its name and setting, its
// attachment at the run's (`attached_ns`), which counter counted (`backend`, also its `source`),
// why that one was chosen, and the version of what counted.
void describe_instruction_entry(CollectorEntry& e, const std::string& backend,
                                std::uint64_t attached_ns, const std::string& choice,
                                const std::string& version);

// Writes the file whole, or says it could not.
jbench::Status write_instruction_records(const RunContext& context, const std::string& backend,
                                         const std::string& backend_version,
                                         const nlohmann::json& units,
                                         const std::vector<nlohmann::json>& records);

}  // namespace jbench::collectors
