// The sections of the attribution page, each from its part of the report, each a self-contained
// HTML fragment (every report string escaped inside). attribution_html.cpp puts them in order.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace jbench::html_pages {

// From report["overview"]: cells down, traced modes across, each square linking to the account of
// the same index in report["cells"] (id "account-N").
std::string overview_section(const nlohmann::json& overview);
// From report["cells"]: one sentence per cell+mode (class "dominant-cost", data-cell), then one
// stacked bar per cell+mode, then each cell's table of parts and its evidence.
std::string dominant_cost_section(const nlohmann::json& cells);
std::string cost_bars_section(const nlohmann::json& cells);
std::string cell_tables_section(const nlohmann::json& cells);

// From a cell's "timeline" (full detail): one strip per incarnation of one run's measure phase,
// on and off the CPU over time; "" without one.
std::string timeline_figure(const nlohmann::json& timeline);

// From report["scaling"]: one curve per scaling group.
std::string scaling_section(const nlohmann::json& scaling);

// From report["overhead"]: the forest plot of every cell+mode's median ratio.
std::string overhead_section(const nlohmann::json& overhead);
// The counted cells' instructions per operation (report["counted"]); "" when there are none.
std::string counted_section(const nlohmann::json& counted);
std::string project_counters_section(const nlohmann::json& rows);

// From report["startup"]: each run's startup steps and its call sequence.
std::string startup_section(const nlohmann::json& startup);

// "cell · mode", or what is known of it: how the page names a cell+mode everywhere.
std::string cell_name(const nlohmann::json& cell);

// A cell's parts in rank order, unranked ones (the rest) after them: the bar's and the table's
// order.
std::vector<const nlohmann::json*> ranked_parts(const nlohmann::json& cell);

// "[54–61]" from a share's low and high; without them, "no interval (1 repetition)" when there
// was one repetition, else "no interval".
std::string share_interval(const nlohmann::json& low, const nlohmann::json& high,
                           const nlohmann::json& repetitions);

}  // namespace jbench::html_pages
