#include "jbench/collectors/modes/mode_availability.h"

#include <nlohmann/json.hpp>

#include "jbench/collectors/modes/trace_modes.h"

namespace jbench::collectors {

ModeAvailability mode_availability(TraceMode mode, const WorkloadTraits& workload,
                                   const nlohmann::json& capabilities, bool alloc_library_built) {
  const HostOffer host{capabilities, alloc_library_built};
  for (const CollectorPlan& c : collectors_for(mode, workload)) {
    if (!c.required || !c.check_host) continue;
    if (Availability a = c.check_host(host); !a.available) {
      return {false, std::move(a.reason), std::move(a.remediation)};
    }
  }
  return {};
}

}  // namespace jbench::collectors
