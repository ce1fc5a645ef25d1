// The page assembly: <head> (policy, script, style), the title and the bundle's banners, then
// the sections in the order docs/report.md gives, then the report's warnings.
#include "jbench/html_pages/attribution_html.h"

#include "format.h"
#include "html_escape.h"
#include "page_frame.h"
#include "sections.h"

namespace jbench::html_pages {

using nlohmann::json;

namespace {

std::string banners(const json& report) {
  std::string out;
  // Only an explicit `true` is a valid bundle: a missing or garbled flag is not evidence of one.
  if (field(report, "bundle_valid") != true) {
    out +=
        "<p class=\"banner invalid\" id=\"invalid-bundle\">INVALID BUNDLE — every figure below "
        "comes from a bundle that failed validation</p>\n";
  }
  if (auto note = text(field(report, "bundle_note")); !note.empty()) {
    out += "<p class=\"banner note\">" + escape(note) + "</p>\n";
  }
  return out + schema_note(report, "jbench.attribution_report");
}

std::string warnings_section(const json& warnings) {
  std::string out = "<section id=\"warnings\">\n<h2>Warnings</h2>\n";
  if (array_or_empty(warnings).empty()) return out + "<p class=\"empty\">None.</p>\n</section>\n";
  out += "<ul class=\"warnings\">\n";
  for (const json& w : array_or_empty(warnings)) {
    out += "<li>" + escape(sentence(w)) + "</li>\n";
  }
  return out + "</ul>\n</section>\n";
}

}  // namespace

std::string attribution_to_html(const json& report) {
  const std::string bundle = text(field(report, "bundle"));
  const std::string title = "jbench attribution report" + (bundle.empty() ? "" : " — " + bundle);
  std::string out = page_head(title);
  out += "<header>\n<h1>jbench attribution report</h1>\n";
  out +=
      "<p class=\"bundle\">bundle: " + escape(bundle.empty() ? "(not named)" : bundle) + "</p>\n";
  out += banners(report) + "</header>\n";

  const json& cells = field(report, "cells");
  out += overview_section(field(report, "overview"));
  out += dominant_cost_section(cells);
  out += cost_bars_section(cells);
  out += cell_tables_section(cells);
  out += scaling_section(field(report, "scaling"));
  out += counted_section(field(report, "counted"));
  out += project_counters_section(field(report, "project_counters"));
  out += overhead_section(field(report, "overhead"));
  out += startup_section(field(report, "startup"));
  out += warnings_section(field(report, "warnings"));
  return out + "</body>\n</html>\n";
}

}  // namespace jbench::html_pages
