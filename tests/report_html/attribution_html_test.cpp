// The attribution page as text, rendered from the checked-in reports: the sections in order,
// the dominant-cost sentences where the browser test looks for them, what null and empty
// fields become, the hostile strings escaped, and nothing that reaches for the network.
#include "jbench/html_pages/attribution_html.h"

#include <gtest/gtest.h>

#include <regex>

#include "fixtures.h"
#include "html_escape.h"

namespace jbench::html_pages {
namespace {

using nlohmann::json;
using test::attribution_fixture;
using test::kHostile;

TEST(AttributionHtml, sections_come_in_the_documented_order) {
  const std::string page = attribution_to_html(attribution_fixture("example.json"));
  std::size_t at = 0;
  for (const char* id : {"overview", "dominant-costs", "cost-bars", "cells", "scaling", "overhead",
                         "startup", "warnings"}) {
    const std::size_t found = page.find(std::string("<section id=\"") + id + "\"");
    ASSERT_NE(found, std::string::npos) << id;
    EXPECT_GT(found, at) << id << " is out of order";
    at = found;
  }
}

// Counted cells, when the report has them: a table row each with its figures and source, before
// the overhead; a report without them has no such section.
TEST(AttributionHtml, counted_cells_are_a_table_before_the_overhead_and_only_when_there) {
  json report = attribution_fixture("example.json");
  EXPECT_EQ(attribution_to_html(report).find("<section id=\"counted\""), std::string::npos);
  report["counted"] = json::parse(R"J([{"cell": "w1.persistent.mixed.small", "runs": 3,
      "counted_runs": 2, "instructions_per_op": [53923.4, 58841.0], "seeds": ["1", "2"],
      "median_instructions_per_op": 56382.2, "source": "callgrind (valgrind-3.19.0)"
}])J");
  const std::string page = attribution_to_html(report);
  const std::size_t counted = page.find("<section id=\"counted\"");
  ASSERT_NE(counted, std::string::npos);
  EXPECT_LT(counted, page.find("<section id=\"overhead\""));
  EXPECT_NE(page.find("<tr><td>w1.persistent.mixed.small</td><td>2 of 3</td><td>56382</td>"
                      "<td>53923..58841</td><td>callgrind (valgrind-3.19.0)</td></tr>"),
            std::string::npos)
      << page.substr(counted, 2000);
}

// The project's own counters, when the report has them: a row per cell, mode and counter with
// its runs and figures, before the overhead; a report without them has no such section.
TEST(AttributionHtml, project_counters_are_a_table_before_the_overhead_and_only_when_there) {
  json report = attribution_fixture("example.json");
  EXPECT_EQ(attribution_to_html(report).find("<section id=\"project-counters\""),
            std::string::npos);
  report["project_counters"] = json::parse(R"J([{"cell": "w1.persistent.mixed.small",
      "mode": "full", "counter": "counter:bytes_<copied>_per_op", "ok_runs": 3,
      "per_op": [64, 63.5], "median_per_op": 63.75}])J");
  const std::string page = attribution_to_html(report);
  const std::size_t section = page.find("<section id=\"project-counters\"");
  ASSERT_NE(section, std::string::npos);
  EXPECT_LT(section, page.find("<section id=\"overhead\""));
  EXPECT_NE(page.find("<tr><td>w1.persistent.mixed.small</td><td>full</td>"
                      "<td>counter:bytes_&lt;copied&gt;_per_op</td><td>2 of 3</td><td>63.75</td>"
                      "<td>63.5..64</td></tr>"),
            std::string::npos)
      << page.substr(section, 2000);
}

// The overview: a square per row of report["overview"], cells down and modes across, each with
// the row's figures, tinted by the rest and linked to the account of the same index.
TEST(AttributionHtml, the_overview_is_a_grid_of_the_reports_rows_linked_to_their_accounts) {
  json report = attribution_fixture("example.json");
  json second = report["overview"][0];
  second["mode"] = "light";
  second["largest"] = "pwrite64";
  second["largest_share"] = 0.2;
  second["rest_share"] = 0.01;
  second["rest_over_limit"] = false;
  second["cost_ratio"] = nullptr;
  report["overview"].push_back(second);
  report["cells"].push_back(report["cells"][0]);
  report["cells"][1]["mode"] = "light";
  const std::string page = attribution_to_html(report);
  const auto grid = page.find("<table class=\"overview\">");
  ASSERT_NE(grid, std::string::npos);
  // Modes in the documented order, light before full, though the first row is full.
  EXPECT_NE(page.find("<th>light</th><th>full</th>", grid), std::string::npos);
  const std::string full = page.substr(page.find("<td class=\"square over-limit\"", grid), 700);
  for (const char* expected :
       {"data-mode=\"full\"", "data-rest=\"0.37\"", "href=\"#account-0\"",
        "fdatasync on plant.log</span> <span class=\"share\">58%", "rest 37%",
        "cost ×1.07 [1.03–1.12]", "class=\"cost costly\"", "rgba(192, 57, 43, 0.550)"}) {
    EXPECT_NE(full.find(expected), std::string::npos) << expected << " not in " << full;
  }
  const std::string light = page.substr(page.find("<td class=\"square\"", grid), 700);
  for (const char* expected : {"data-mode=\"light\"", "href=\"#account-1\"", "20%", "rest 1.0%",
                               "cost not measured", "rgba(192, 57, 43, 0.055)"}) {
    EXPECT_NE(light.find(expected), std::string::npos) << expected << " not in " << light;
  }
  // Each account opens with its cell's sentence and links to its bar.
  const auto account = page.find("<section class=\"cell\" id=\"account-1\"");
  ASSERT_NE(account, std::string::npos);
  const std::string head = page.substr(account, 1200);
  EXPECT_NE(head.find("<p class=\"account-sentence\">" +
                      escape(report["cells"][1]["sentence"].get<std::string>())),
            std::string::npos)
      << head;
  EXPECT_NE(head.find("href=\"#bar-1\""), std::string::npos) << head;
  EXPECT_NE(page.find("<figure class=\"cost-bar\" id=\"bar-1\""), std::string::npos);
  // A report without rows says so instead of drawing an empty table.
  report["overview"] = json::array();
  EXPECT_NE(attribution_to_html(report).find("nothing to overview"), std::string::npos);
}

TEST(AttributionHtml, a_cells_wait_for_rows_are_a_table_of_who_woke_whom) {
  json report = attribution_fixture("example.json");
  report["cells"][0]["wait_for"] = json::array({{{"worker", 2},
                                                 {"what", "flock LOCK_EX on db.lock"},
                                                 {"woken_by", "worker 1"},
                                                 {"share", 0.31},
                                                 {"share_low", 0.27},
                                                 {"share_high", 0.35},
                                                 {"ns_per_op", 41000.0}}});
  const std::string page = attribution_to_html(report);
  const auto table = page.find("<table class=\"wait-for\">");
  ASSERT_NE(table, std::string::npos);
  const std::string row = "<tr><td>2</td><td>flock LOCK_EX on db.lock</td><td>worker 1</td><td>31%";
  EXPECT_NE(page.find(row, table), std::string::npos) << page.substr(table, 800);
  // A cell without rows has no table.
  report["cells"][0]["wait_for"] = json::array();
  EXPECT_EQ(attribution_to_html(report).find("class=\"wait-for\""), std::string::npos);
}

// A cell's other system calls are a table; its timeline one strip per incarnation, each bin's
// column as tall as the shares it holds (a strip is 22 px); the run's name is escaped.
TEST(AttributionHtml, a_cells_other_calls_are_a_table_and_its_timeline_a_strip_per_worker) {
  json report = attribution_fixture("example.json");
  report["cells"][0]["other_syscalls"] = json::array({{{"name", "futex"},
                                                       {"calls_per_op", 2.5},
                                                       {"errors_per_op", 0.0},
                                                       {"ns_per_op", 1200.0},
                                                       {"ns_per_op_low", 1100.0},
                                                       {"ns_per_op_high", 1300.0},
                                                       {"share", 0.04},
                                                       {"share_low", 0.03},
                                                       {"share_high", 0.05}}});
  const json zeros = json::array({0.0, 0.0, 0.0, 0.0});
  report["cells"][0]["timeline"] = {
      {"run", std::string("r1") + kHostile},
      {"window_ns", 1e9},
      {"bins", 4},
      {"incarnations", json::array({{{"worker", 0},
                                     {"threads", 1},
                                     {"blocked", json::array({0.5, 0.0, 0.0, 0.0})},
                                     {"runnable", zeros},
                                     {"in_calls", json::array({0.0, 0.25, 0.0, 0.0})}},
                                    {{"worker", 1},
                                     {"threads", 1},
                                     {"blocked", zeros},
                                     {"runnable", json::array({0.0, 0.0, 1.0, 0.0})},
                                     {"in_calls", zeros}}})}};
  const std::string page = attribution_to_html(report);
  const auto table = page.find("<table class=\"other-syscalls\">");
  ASSERT_NE(table, std::string::npos);
  EXPECT_NE(page.find("<tr><td>futex</td><td>2.5</td>", table), std::string::npos)
      << page.substr(table, 600);
  const auto figure = page.find("<figure class=\"timeline\">");
  ASSERT_NE(figure, std::string::npos);
  const std::string svg = page.substr(figure, page.find("</figure>", figure) - figure);
  EXPECT_NE(svg.find("worker 0"), std::string::npos);
  EXPECT_NE(svg.find("worker 1"), std::string::npos);
  // Two background strips, then the three non-zero bins: 11 px blocked, 5.5 px in calls, 22 px
  // runnable (the second strip starts at 28 px).
  const std::regex rect(
      "<rect x=\"([0-9.]+)\" y=\"([0-9.]+)\" width=\"([0-9.]+)\" "
      "height=\"([0-9.]+)\"");
  std::vector<std::string> heights;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), rect); it != std::sregex_iterator();
       ++it) {
    heights.push_back((*it)[4]);
  }
  EXPECT_EQ(heights, (std::vector<std::string>{"22.0", "11.0", "5.5", "22.0", "22.0"})) << svg;
  EXPECT_EQ(svg.find(kHostile), std::string::npos) << "the run's name is escaped";
  // Without a timeline (not full detail), no figure.
  report["cells"][0]["timeline"] = nullptr;
  EXPECT_EQ(attribution_to_html(report).find("class=\"timeline\""), std::string::npos);
}

TEST(AttributionHtml, dominant_cost_sentence_stands_in_its_cell_element) {
  const json report = attribution_fixture("example.json");
  const std::string page = attribution_to_html(report);
  const json& cell = report["cells"][0];
  const std::string element = "<p class=\"dominant-cost\" data-cell=\"" +
                              escape(cell["cell"].get<std::string>()) + "\" data-mode=\"full\">" +
                              escape(cell["sentence"].get<std::string>()) + "</p>";
  EXPECT_NE(page.find(element), std::string::npos);
}

TEST(AttributionHtml, example_shows_each_plot_and_table) {
  const std::string page = attribution_to_html(attribution_fixture("example.json"));
  EXPECT_NE(page.find("fdatasync on plant.log — 58% [54–61]"), std::string::npos);  // legend
  EXPECT_NE(page.find("<title>fdatasync on plant.log: 58% [54–61]</title>"), std::string::npos);
  EXPECT_NE(page.find("url(#jb-hatch-0)"), std::string::npos);  // the rest, hatched
  EXPECT_NE(page.find("2.9 ms [2.8 ms–3 ms]"), std::string::npos);
  EXPECT_NE(page.find("not attributed: the gc collector is not_available — the sqlite worker"),
            std::string::npos);
  EXPECT_NE(page.find("class=\"band\""), std::string::npos);  // the scaling interval band
  EXPECT_NE(page.find("eff 89% [84–95]"), std::string::npos);
  EXPECT_NE(page.find("class=\"unity\""), std::string::npos);  // the forest plot's 1.0 line
  EXPECT_NE(page.find("×1.07 [1.03–1.12], 5 pairs"), std::string::npos);
  EXPECT_NE(page.find("bridge writer thread (observer)"), std::string::npos);
  EXPECT_NE(page.find("4.88 µs"), std::string::npos);
  EXPECT_NE(page.find("stays on top in 99.8% of 2000 resamples"), std::string::npos);
  EXPECT_NE(page.find("4000 committed transactions per run"), std::string::npos);
  EXPECT_EQ(page.find("INVALID BUNDLE"), std::string::npos);
}

TEST(AttributionHtml, the_scheduler_split_stands_beside_the_parts_in_place_of_on_cpu_alone) {
  json report = attribution_fixture("example.json");
  json& cell = report["cells"][0];
  cell["scheduler"] = {{"on_cpu", {{"share", 0.47}, {"low", 0.46}, {"high", 0.48}}},
                       {"runnable", {{"share", 0.46}, {"low", 0.45}, {"high", 0.47}}},
                       {"blocked", {{"share", 0.07}, {"low", nullptr}, {"high", nullptr}}}};
  const std::string page = attribution_to_html(report);
  EXPECT_NE(page.find("the scheduler (kernel accounting, overlapping the parts, never "
                      "subtracted): on-CPU 47% [46–48], runnable (waiting for a CPU) 46% [45–47], "
                      "blocked 7.0% no interval"),
            std::string::npos)
      << page;
}

TEST(AttributionHtml, missing_evidence_is_said_not_printed_as_null) {
  const std::string page = attribution_to_html(attribution_fixture("sparse-hostile.json"));
  EXPECT_NE(page.find("INVALID BUNDLE — every figure below comes from a bundle that failed "
                      "validation"),
            std::string::npos);
  EXPECT_NE(page.find("no interval (1 repetition)"), std::string::npos);
  EXPECT_NE(page.find("w2.cold.reader.big · full: not enough evidence for a dominant cost."),
            std::string::npos);
  EXPECT_NE(page.find("top cost: not enough evidence"), std::string::npos);
  EXPECT_NE(page.find("observer cost: not measured"), std::string::npos);
  EXPECT_NE(page.find("no second trace mode to compare rankings with"), std::string::npos);
  EXPECT_NE(page.find("light mode DISAGREES"), std::string::npos);
  EXPECT_NE(page.find("×0.98, no interval (1 pair)"), std::string::npos);
  EXPECT_NE(page.find("no pairs: no ratio"), std::string::npos);
  EXPECT_NE(page.find("the shares are of the 80% of the time that was attributed"),
            std::string::npos);
  EXPECT_NE(page.find("12 more calls are not listed"), std::string::npos);
  EXPECT_NE(page.find("Not drawn: 2 workers: no throughput (0 runs)."), std::string::npos);
  EXPECT_NE(page.find("×1.20 (no interval) over 1 pair</li>"), std::string::npos);
  for (const char* absent : {"null", "NaN", "undefined"}) {
    EXPECT_EQ(page.find(absent), std::string::npos) << absent;
  }
}

TEST(AttributionHtml, hostile_strings_are_escaped_wherever_they_land) {
  const std::string page = attribution_to_html(attribution_fixture("sparse-hostile.json"));
  EXPECT_EQ(page.find(kHostile), std::string::npos);
  EXPECT_EQ(page.find("<img"), std::string::npos);
  // Exactly one <script>: the page's own, in <head>.
  const std::size_t script = page.find("<script");
  EXPECT_LT(script, page.find("</head>"));
  EXPECT_EQ(page.find("<script", script + 1), std::string::npos);
  EXPECT_NE(page.find(escape(kHostile)), std::string::npos);
}

TEST(AttributionHtml, page_names_no_url_and_forbids_every_fetch) {
  for (const char* name : {"example.json", "sparse-hostile.json"}) {
    const std::string page = attribution_to_html(attribution_fixture(name));
    EXPECT_EQ(page.find("http://"), std::string::npos) << name;
    EXPECT_EQ(page.find("https://"), std::string::npos) << name;
    // No tag has a src attribute, nor an href but to a place in the page ("#account-0": the
    // overview's squares); the renderer double-quotes every attribute value, so "src=" inside
    // one, as in an escaped hostile string, is not taken for an attribute.
    const std::regex fetching_attribute(
        R"re(<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z:-]+(?:="[^"]*")?)*\s+(?:src\s*=|href\s*=\s*"[^#]))re");
    ASSERT_TRUE(std::regex_search("<img class=\"a\" src=\"x.png\">", fetching_attribute));
    ASSERT_TRUE(std::regex_search("<a class=\"a\" href=\"x.html#y\">", fetching_attribute));
    ASSERT_FALSE(std::regex_search("<a class=\"a\" href=\"#account-2\">", fetching_attribute));
    EXPECT_FALSE(std::regex_search(page, fetching_attribute)) << name;
    EXPECT_NE(page.find("content=\"default-src 'none';"), std::string::npos) << name;
  }
}

TEST(AttributionHtml, documents_of_another_shape_render_with_a_note) {
  for (const json& doc : {json(), json::array(), json("text"), json::object(),
                          json{{"cells", 3}, {"scaling", "x"}, {"overhead", json::array()}}}) {
    const std::string page = attribution_to_html(doc);
    EXPECT_NE(page.find("INVALID BUNDLE"), std::string::npos) << doc.dump();
    EXPECT_NE(page.find("does not say it is a jbench.attribution_report"), std::string::npos);
    EXPECT_NE(page.find("</html>"), std::string::npos);
  }
}

TEST(AttributionHtml, same_report_gives_the_same_page) {
  const json report = attribution_fixture("example.json");
  EXPECT_EQ(attribution_to_html(report), attribution_to_html(report));
}

}  // namespace
}  // namespace jbench::html_pages
