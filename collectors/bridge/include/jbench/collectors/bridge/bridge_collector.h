// The bridge collector as the run loop sees it (api/collector.h): each worker's bridge records
// into its own raw file; before release every worker's canary must be in it; after the run the
// files give four table rows — bridge, spans, gc, and alloc where the runtime samples its own.
#pragma once

#include <memory>

#include "jbench/collectors/api/collector.h"

namespace jbench::collectors {

std::unique_ptr<Collector> make_bridge_collector(const RunContext& context);

// Why the gc row cannot be served for a kind whose target reports no collections.
std::string gc_unavailable_reason(std::string_view workload_kind);

}  // namespace jbench::collectors
