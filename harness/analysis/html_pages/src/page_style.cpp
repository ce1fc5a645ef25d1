#include "page_style.h"

namespace jbench::html_pages {

std::string_view page_css() {
  return R"css(
body { font: 14px/1.45 system-ui, sans-serif; color: #222; margin: 24px auto; max-width: 1040px; padding: 0 16px; }
h1 { font-size: 22px; margin-bottom: 4px; }
h2 { font-size: 18px; margin-top: 32px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
h3 { font-size: 15px; margin: 20px 0 6px; }
.bundle { color: #555; font-family: ui-monospace, monospace; word-break: break-all; }
.banner { padding: 10px 14px; margin: 12px 0; border-radius: 4px; font-weight: 600; }
.banner.invalid { background: #fde2e1; border: 2px solid #c0392b; color: #7b1d14; }
.banner.note { background: #fff6d6; border: 1px solid #d8b74a; font-weight: normal; }
table.overview td.square { font-size: 12.5px; min-width: 16em; }
table.overview td.square a { color: inherit; text-decoration: none; display: block; }
table.overview td.square .share { font-weight: 600; }
table.overview td.square.over-limit .rest { font-weight: 700; color: #7b1d14; }
table.overview .cost.costly { font-weight: 700; color: #8a4b00; }
table.overview th.cell { font-family: ui-monospace, monospace; font-size: 12px; font-weight: normal; }
.dominant-cost { font-size: 15px; background: #f3f6fa; border-left: 4px solid #4e79a7; padding: 8px 12px; }
.explain, .note, .cell-facts { color: #555; }
.empty { color: #777; font-style: italic; }
figure { margin: 16px 0; }
figcaption { font-weight: 600; margin-bottom: 6px; }
svg text { font: 12px system-ui, sans-serif; fill: #222; }
svg .seg-label { fill: #fff; }
svg .seg-label.rest { fill: #222; }
svg .segment:hover { opacity: 0.85; }
svg .axis { stroke: #888; }
svg .tick { fill: #555; }
svg .band { fill: #4e79a7; fill-opacity: 0.22; stroke: none; }
svg .curve { stroke: #4e79a7; stroke-width: 2; }
svg .point { fill: #4e79a7; }
svg .whisker { stroke: #333; stroke-width: 1.5; }
svg .unity { stroke: #c0392b; stroke-dasharray: 4 3; }
table { border-collapse: collapse; margin: 8px 0; width: 100%; }
th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid #eee; vertical-align: top; }
th { background: #f6f6f6; font-weight: 600; }
tr.rest td { color: #555; background: #fafafa; }
tr.not-attributed td { color: #8a4b00; background: #fff8ec; }
td.not-attributable { color: #8a4b00; }
.path { font-family: ui-monospace, monospace; font-size: 12px; color: #666; word-break: break-all; }
.evidence li { margin: 2px 0; }
.warnings li { color: #8a4b00; }
.banner.outcome { font-size: 16px; border: 2px solid #888; background: #f3f3f3; }
.banner.outcome.regression { background: #fde2e1; border-color: #c0392b; color: #7b1d14; }
.banner.outcome.no_regression { background: #e3f4e1; border-color: #3b8a2f; color: #1d4d16; }
.banner.outcome.no_verdict { background: #fff6d6; border-color: #d8b74a; color: #5c4800; }
.banner.outcome.refused { background: #ece4f5; border-color: #7a5aa6; color: #3d2460; }
.exit-code { font-family: ui-monospace, monospace; font-weight: normal; margin-left: 8px; }
td.verdict { font-weight: 600; }
td.verdict.regressed, svg .point.regressed, li.change.worse { color: #b0281a; fill: #c0392b; }
td.verdict.improved, svg .point.improved { color: #2e7d32; fill: #3b8a2f; }
td.verdict.unknown, svg .point.unknown { color: #8a6d00; fill: #b08a00; }
td.verdict.unstated, svg .point.unstated { color: #777; fill: #999; }
table.compare-rows, table.bundles { font-size: 12.5px; }
table.compare-rows td.note { min-width: 14em; }
.table-scroll { overflow-x: auto; }
tr.bundle-row.gap td { color: #8a4b00; background: #fff8ec; }
td.revision { font-family: ui-monospace, monospace; font-size: 12px; }
td.time { white-space: nowrap; }
svg .gap { fill: #f1e4d0; }
svg .change { stroke: #4e79a7; stroke-width: 2; stroke-dasharray: 5 3; }
svg .change.worse { stroke: #c0392b; stroke-width: 3; }
)css";
}

}  // namespace jbench::html_pages
