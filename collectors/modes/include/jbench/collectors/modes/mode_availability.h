// Whether a trace mode can be what it says on this host: every collector the mode requires must
// be able to attach here, as `jbench doctor`'s probe found (capabilities.json). Pure: the same
// capability document in gives the same answer out.
//
//   ModeAvailability a = mode_availability(TraceMode::light, traits_of_kind("sqlite"), caps,
//   built); if (!a.available) std::cerr << a.reason << "; " << a.remediation;
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

#include "jbench/collectors/api/collector.h"
#include "jbench/common/trace_mode.h"

namespace jbench::collectors {

// Each required row's own host check (trace_modes.h), the first that fails.
using ModeAvailability = Availability;

// `capabilities`: the probe_capabilities() document. `alloc_library_built`: whether the
// allocation sampler (libjbench_alloc.so) exists beside the harness.
ModeAvailability mode_availability(TraceMode mode, const WorkloadTraits& workload,
                                   const nlohmann::json& capabilities, bool alloc_library_built);

}  // namespace jbench::collectors
