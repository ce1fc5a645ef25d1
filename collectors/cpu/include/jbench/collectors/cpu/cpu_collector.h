// The cpu collector as the run loop sees it (api/collector.h): CpuAccounting of every registered
// incarnation, read at each boundary, closed by the exit totals. Every trace mode runs it.
#pragma once

#include <memory>

#include "jbench/collectors/api/collector.h"

namespace jbench::collectors {

std::unique_ptr<Collector> make_cpu_collector(const RunContext& context);

}  // namespace jbench::collectors
