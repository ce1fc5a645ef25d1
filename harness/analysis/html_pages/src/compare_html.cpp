// The compare page's assembly: the header (base, candidate, the outcome banner), what was not
// compared and why, then the rows' plots and table (compare_rows_html.cpp).
#include "jbench/html_pages/compare_html.h"

#include "compare_sections.h"
#include "format.h"
#include "html_escape.h"
#include "page_frame.h"

namespace jbench::html_pages {

using nlohmann::json;

namespace {

std::string side_line(std::string_view role, const std::string& dir) {
  return "<p class=\"bundle\">" + std::string(role) + ": " +
         escape(dir.empty() ? "(not named)" : dir) + "</p>\n";
}

// One list of sentences under its heading, or nothing when the list is empty. Cell lists mark
// each item with data-cell so that a test (or a reader's script) can find a cell left out.
std::string list_block(std::string_view id, std::string_view heading, const json& items,
                       bool cells) {
  if (array_or_empty(items).empty()) return "";
  std::string out = "<h3>" + std::string(heading) + "</h3>\n<ul class=\"" + std::string(id) +
                    "\" id=\"" + std::string(id) + "\">\n";
  for (const json& item : array_or_empty(items)) {
    const std::string line = sentence(item);
    out += cells ? "<li data-cell=\"" + escape(line) + "\">" : std::string("<li>");
    out += escape(line) + "</li>\n";
  }
  return out + "</ul>\n";
}

std::string not_compared_section(const json& report) {
  std::string lists = list_block("refusals", "Refused: what differs between the bundles",
                                 field(report, "refusals"), false) +
                      list_block("invalid", "Not evidence: a bundle failed validation",
                                 field(report, "invalid"), false) +
                      list_block("build-differences", "The workload binaries differ (sha256 path)",
                                 field(report, "build_differences"), false) +
                      list_block("setting-differences", "Compared across settings",
                                 field(report, "setting_differences"), false) +
                      list_block("only-in-base", "Only in the base (not compared)",
                                 field(report, "only_in_base"), true) +
                      list_block("only-in-candidate", "Only in the candidate (not compared)",
                                 field(report, "only_in_candidate"), true);
  if (lists.empty()) {
    lists =
        "<p class=\"empty\">Nothing: both bundles are evidence, of the same build and settings, "
        "with the same cells.</p>\n";
  }
  return "<section id=\"not-compared\">\n<h2>What was not compared, and what differs</h2>\n" +
         lists + "</section>\n";
}

}  // namespace

std::string comparison_to_html(const json& report) {
  const std::string base = text(field(report, "base"));
  const std::string candidate = text(field(report, "candidate"));
  std::string out = page_head("jbench compare — " + (base.empty() ? "?" : base) + " → " +
                              (candidate.empty() ? "?" : candidate));
  out += "<header>\n<h1>jbench compare</h1>\n";
  out += side_line("base", base) + side_line("candidate", candidate);
  out += outcome_banner(report) + schema_note(report, "jbench.compare_report");
  if (const std::string shift = text(field(report, "common_shift")); !shift.empty()) {
    out += "<p class=\"banner note\" id=\"common-shift\">Note: " + escape(shift) + "</p>\n";
  }
  out += "</header>\n" + not_compared_section(report);
  out += ratio_plots_section(field(report, "rows"));
  out += rows_table_section(report);
  return out + "</body>\n</html>\n";
}

}  // namespace jbench::html_pages
