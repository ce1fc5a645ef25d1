// The LD_PRELOAD allocation sampler as the run loop sees it (api/collector.h): only the cohort is
// preloaded; a header naming each worker's registered incarnation, there before release, proves
// it is loaded; after the run the files give the alloc entry and its estimate. Where the sampler
// was not built, the entry says not_available and how to build it.
#pragma once

#include <memory>

#include "jbench/collectors/api/collector.h"

namespace jbench::collectors {

std::unique_ptr<Collector> make_alloc_collector(const RunContext& context);

// Whether the sampler can be preloaded here: libjbench_alloc.so was built beside jbench.
Availability alloc_host_check(const HostOffer& host);

}  // namespace jbench::collectors
