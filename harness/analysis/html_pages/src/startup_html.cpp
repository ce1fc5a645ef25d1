// The startup section: per run, how long each startup step took and the sequence of calls the
// worker made before it was ready, each marked with whom it belongs to (the workload, or the
// observer), so that a slow start is charged to the right party.
#include <fmt/format.h>

#include "format.h"
#include "html_escape.h"
#include "sections.h"

namespace jbench::html_pages {

using nlohmann::json;

namespace {

std::string cell(const std::string& s) { return "<td>" + escape(s) + "</td>"; }

std::string ns_cell(const json& v) {
  const auto ns = number(v);
  return cell(ns ? duration(*ns) : "—");
}

}  // namespace

std::string startup_section(const json& startup) {
  std::string out = "<section id=\"startup\">\n<h2>Startup</h2>\n";
  if (array_or_empty(startup).empty()) {
    out += "<p class=\"empty\">No startup accounts in this report.</p>\n";
  }
  for (const json& run : array_or_empty(startup)) {
    std::string title = text(field(run, "run"));
    if (title.empty()) title = "(unnamed run)";
    if (auto w = text(field(run, "worker")); !w.empty()) title += ", worker " + w;
    if (auto pid = text(field(run, "pid")); !pid.empty()) title += ", pid " + pid;
    out += "<div class=\"startup\"><h3>" + escape(title) + "</h3>\n";

    out += "<table class=\"steps\"><thead><tr><th>step</th><th>took</th></tr></thead><tbody>\n";
    for (const json& step : array_or_empty(field(run, "steps"))) {
      out += "<tr>" + cell(text(field(step, "step"))) + ns_cell(field(step, "ns")) + "</tr>\n";
    }
    if (array_or_empty(field(run, "steps")).empty()) {
      out += "<tr><td colspan=\"2\" class=\"empty\">no steps recorded</td></tr>\n";
    }
    out += "</tbody></table>\n";

    const json& calls = array_or_empty(field(run, "calls"));
    out +=
        "<table class=\"calls\"><thead><tr><th>at</th><th>call</th><th>fd</th><th>path</th>"
        "<th>request</th><th>took</th><th>count</th><th>belongs to</th></tr></thead><tbody>\n";
    for (const json& c : calls) {
      out += "<tr>" + ns_cell(field(c, "t_ns")) + cell(text(field(c, "call"))) +
             cell(text(field(c, "fd"))) + "<td class=\"path\">" + escape(text(field(c, "path"))) +
             "</td>" + cell(text(field(c, "request"))) + ns_cell(field(c, "duration_ns")) +
             cell(text(field(c, "count"))) + cell(text(field(c, "belongs_to"))) + "</tr>\n";
    }
    if (calls.empty()) {
      out += "<tr><td colspan=\"8\" class=\"empty\">no calls recorded</td></tr>\n";
    }
    out += "</tbody></table>\n";
    if (const auto cut = number(field(run, "calls_cut")); cut && *cut > 0) {
      out += "<p class=\"note\">" + escape(plain(*cut)) + " more calls are not listed.</p>\n";
    }
    out += "</div>\n";
  }
  return out + "</section>\n";
}

}  // namespace jbench::html_pages
