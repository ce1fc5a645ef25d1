// Scaling along `workers` (scaling.cpp). Private to jbench::attribution.
#pragma once

#include <vector>

#include "cells.h"

namespace jbench::attribution {

std::vector<ScalingGroup> analyse_scaling(const std::vector<overhead_report::RunFacts>& runs,
                                          const std::vector<CellAttribution>& cells);

}  // namespace jbench::attribution
