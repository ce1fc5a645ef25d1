// How figures are written in the report's sentences and tables: shares as percentages with
// their interval, durations with a unit, the cell in words. Private to jbench::attribution.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "jbench/attribution/analysis.h"

namespace jbench::attribution {

std::string percent(double fraction);                    // "58%", "0.4%"
std::string share_with_interval(const Estimate& share);  // "58% [54–61]"
std::string ratio_with_interval(double ratio, std::optional<double> low,
                                std::optional<double> high);
std::string duration(double ns);  // "2.9 ms", "830 ns"
std::string describe_cell(const std::vector<std::pair<std::string, std::string>>& values);
std::string lane_word(const std::vector<std::pair<std::string, std::string>>& values);

}  // namespace jbench::attribution
