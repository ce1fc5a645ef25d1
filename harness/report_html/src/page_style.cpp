#include "page_style.h"

namespace jbench::report_html {

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
)css";
}

}  // namespace jbench::report_html
