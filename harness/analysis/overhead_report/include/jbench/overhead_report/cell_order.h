// The order every table of a bundle's cells follows (docs/report.md, "Order"): the points in the
// matrix's axis order, as the bundle's plan.json lists its cells; within a point the baseline
// first, then the traced modes in the documented order (no-consumer, light, full). Points the plan
// does not list (a bundle without plan.json, a hand-made one) come after, in natural order.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "jbench/overhead_report/overhead.h"

namespace jbench::overhead_report {

// Digit runs compare as numbers, everything else byte by byte: w2 before w10.
bool natural_less(std::string_view a, std::string_view b);

// baseline 0, no-consumer 1, light 2, full 3, counted 4 (kTraceValues); another mode after them.
std::size_t mode_rank(std::string_view mode);

// Every point of `runs` (RunFacts::cell), once, in the order above.
std::vector<std::string> ordered_points(const std::vector<RunFacts>& runs);

// Every cell of `runs` as (point, trace mode), once, in the order above.
std::vector<std::pair<std::string, std::string>> ordered_cells(const std::vector<RunFacts>& runs);

}  // namespace jbench::overhead_report
