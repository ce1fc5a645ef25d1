// The compare page as text, rendered from documents jbench::compare makes of the checked-in
// bundles: the outcome banner and its class, one table row per document row with its verdict,
// a forest plot per metric, the cells left out listed; and from hostile documents (markup in
// every string, fields missing, null or of the wrong type): everything escaped, nothing thrown,
// no "null" shown.
#include "jbench/html_pages/compare_html.h"

#include <gtest/gtest.h>

#include <regex>

#include "compare_documents.h"
#include "html_escape.h"
#include "page_text.h"

namespace jbench::html_pages {
namespace {

using nlohmann::json;
using test::comparison_document;
using test::kMarkup;
using test::occurrences;
using test::raw_value_in_text;

TEST(CompareHtml, a_planted_regression_is_a_regression_banner_and_regressed_rows) {
  const json doc = comparison_document("writer-a", "writer-planted", true);
  ASSERT_EQ(doc["outcome"], "regression");
  const std::string page = comparison_to_html(doc);
  EXPECT_NE(page.find("<p class=\"banner outcome regression\" id=\"outcome\" "
                      "data-outcome=\"regression\" data-exit-code=\"1\">" +
                      escape(doc["summary"].get<std::string>()) +
                      " <span class=\"exit-code\">exit 1</span></p>"),
            std::string::npos);
  // One cell, so one row per metric: throughput, p50, p99 and the counters the run recorded.
  ASSERT_GE(doc["rows"].size(), 3u);
  for (const json& row : doc["rows"]) {
    EXPECT_EQ(row["verdict"], "regressed") << row.dump();
    const std::string tr = test::row_markup(row);
    EXPECT_EQ(occurrences(page, tr), 1u) << tr;
    EXPECT_NE(page.find("<figure class=\"ratios\" data-metric=\"" +
                        row["metric"].get<std::string>() + "\">"),
              std::string::npos);
  }
  // One forest plot per metric.
  EXPECT_EQ(occurrences(page, "<figure class=\"ratios\""), doc["rows"].size());
  EXPECT_EQ(occurrences(page, "<title>×1.00: candidate as the base</title>"), doc["rows"].size());
  EXPECT_EQ(page.find("the traced run as fast as its baseline"), std::string::npos);
  EXPECT_NE(page.find("class=\"point regressed\""), std::string::npos);
  EXPECT_NE(page.find("<li>workload.params.plant_fsync_file: none -&gt; plant.log</li>"),
            std::string::npos);
  EXPECT_NE(page.find("×0.073 [0.065–0.081]"), std::string::npos);  // the throughput ratio
  EXPECT_NE(page.find("<td>50060 ops/s</td><td>3650 ops/s</td>"), std::string::npos);
  EXPECT_NE(page.find("<td>1.36 µs</td><td>4.86 µs</td>"), std::string::npos);  // p50
  EXPECT_EQ(raw_value_in_text(page), "");
}

TEST(CompareHtml, every_row_of_the_same_build_twice_is_in_the_table_with_its_verdict) {
  const json doc = comparison_document("writer-a", "writer-b");
  const std::string page = comparison_to_html(doc);
  const std::string outcome = doc["outcome"];
  EXPECT_NE(page.find("class=\"banner outcome " + outcome + "\""), std::string::npos);
  ASSERT_FALSE(doc["rows"].empty());
  EXPECT_EQ(occurrences(page, "<tr class=\"row "), doc["rows"].size());
  std::size_t at = 0;
  for (const json& row : doc["rows"]) {  // in the document's order
    const std::string verdict = row["verdict"];
    at = page.find("data-metric=\"" + row["metric"].get<std::string>() + "\" data-verdict=\"" +
                       verdict + "\">",
                   at);
    ASSERT_NE(at, std::string::npos) << row.dump();
    // The repetitions that would settle it, for an unknown row only; the reason either way.
    const std::string repetitions = verdict == "unknown" && row["repetitions_needed"].is_number()
                                        ? std::to_string(row["repetitions_needed"].get<int>())
                                        : "";
    EXPECT_NE(page.find("<td class=\"note\">" + escape(row["reason"].get<std::string>()) +
                            "</td><td class=\"repetitions\">" + repetitions + "</td></tr>",
                        at),
              std::string::npos)
        << row.dump();
  }
  EXPECT_EQ(raw_value_in_text(page), "");
}

TEST(CompareHtml, cells_in_one_side_only_are_listed_and_nothing_is_plotted) {
  const json doc = comparison_document("writer-a", "reader");
  ASSERT_EQ(doc["outcome"], "no_verdict");
  const std::string page = comparison_to_html(doc);
  EXPECT_NE(page.find("class=\"banner outcome no_verdict\""), std::string::npos);
  EXPECT_NE(page.find("<ul class=\"only-in-base\" id=\"only-in-base\">\n<li data-cell=\""
                      "w1.persistent.writer.small.baseline\">"),
            std::string::npos);
  EXPECT_NE(page.find("<ul class=\"only-in-candidate\" id=\"only-in-candidate\">\n<li data-cell=\""
                      "w1.persistent.reader.small.baseline\">"),
            std::string::npos);
  EXPECT_NE(page.find("No cell was compared."), std::string::npos);
  EXPECT_EQ(page.find("<svg"), std::string::npos);
}

TEST(CompareHtml, a_refusal_names_the_key_under_a_refused_banner) {
  const json doc = comparison_document("writer-a", "writer-planted");
  ASSERT_EQ(doc["outcome"], "refused");
  const std::string page = comparison_to_html(doc);
  EXPECT_NE(page.find("class=\"banner outcome refused\" id=\"outcome\" data-outcome=\"refused\" "
                      "data-exit-code=\"2\""),
            std::string::npos);
  EXPECT_NE(page.find("<ul class=\"refusals\" id=\"refusals\">\n<li>matrix: "
                      "workload.params.plant_fsync_file: none -&gt; plant.log</li>"),
            std::string::npos)
      << page;
}

TEST(CompareHtml, a_metric_it_does_not_know_is_shown_by_its_name_with_a_unit_from_its_suffix) {
  json doc = comparison_document("writer-a", "writer-planted", true);
  doc["rows"][0]["metric"] = "wal_fsyncs_per_op";
  doc["rows"][1]["metric"] = "commit_wait_ns";
  doc["rows"][2]["metric"] = "page_faults";
  const std::string page = comparison_to_html(doc);
  EXPECT_NE(page.find("<figure class=\"ratios\" data-metric=\"wal_fsyncs_per_op\">\n"
                      "<figcaption>wal_fsyncs_per_op "),
            std::string::npos);
  EXPECT_NE(page.find("<td>wal_fsyncs_per_op</td><td>6 + 6</td><td>50060/op</td><td>3650/op</td>"),
            std::string::npos);
  EXPECT_NE(page.find("<td>commit_wait_ns</td><td>6 + 6</td><td>1.36 µs</td>"), std::string::npos);
  EXPECT_NE(page.find("<td>page_faults</td><td>6 + 6</td><td>5696</td><td>15424</td>"),
            std::string::npos);  // no unit suffix: the number as it is
}

TEST(CompareHtml, a_shift_of_every_cell_is_a_note_under_the_outcome_and_only_then) {
  json doc = comparison_document("writer-a", "writer-planted", true);
  EXPECT_EQ(comparison_to_html(doc).find("id=\"common-shift\""), std::string::npos);
  doc["common_shift"] = "every one of the 3 cells moved the same way <b>";
  const std::string page = comparison_to_html(doc);
  EXPECT_NE(page.find("<p class=\"banner note\" id=\"common-shift\">Note: every one of the 3 "
                      "cells moved the same way &lt;b&gt;</p>"),
            std::string::npos);
  doc["common_shift"] = 7;  // a foreign document: shown as text, never a crash
  EXPECT_NO_THROW(comparison_to_html(doc));
}

TEST(CompareHtml, a_paired_row_says_what_paired_it_and_the_page_how_pairs_are_compared) {
  json doc = comparison_document("writer-a", "writer-planted", true);
  const std::string unpaired = comparison_to_html(doc);
  EXPECT_EQ(unpaired.find("Rows marked <em>paired</em>"), std::string::npos);
  doc["rows"][0]["paired"] = true;
  doc["rows"][0]["paired_by"] = "seed";
  doc["rows"][1]["paired"] = true;
  doc["rows"][1]["paired_by"] = "time";
  const std::string page = comparison_to_html(doc);
  EXPECT_EQ(occurrences(page, "Rows marked <em>paired</em>"), 1u);
  EXPECT_EQ(occurrences(page, " <em>paired by seed</em></td>"), 1u);
  EXPECT_EQ(occurrences(page, " <em>paired by time</em></td>"), 1u);
}

TEST(CompareHtml, a_row_without_a_ratio_says_why) {
  json doc = comparison_document("writer-a", "writer-planted", true);
  for (json& row : doc["rows"]) row["ratio"] = row["ci_low"] = row["ci_high"] = nullptr;
  doc["rows"][0]["none_observed"] = true;  // a counter at 0 everywhere
  doc["rows"][1]["base_median"] = 0;       // the base saw none, the candidate some
  doc["rows"][2]["n_base"] = 0;            // the base measured nothing
  const std::string page = comparison_to_html(doc);
  EXPECT_EQ(occurrences(page, "<td>no event observed on either side</td>"), 1u);
  EXPECT_EQ(occurrences(page, "<td>no ratio (the base median is 0)</td>"), 1u);
  EXPECT_NE(page.find("<td>not measured</td>"), std::string::npos);
  EXPECT_EQ(page.find("class=\"whisker\""), std::string::npos);  // no interval drawn
  EXPECT_EQ(raw_value_in_text(page), "");
}

TEST(CompareHtml, a_hostile_document_is_escaped_everywhere_and_never_shows_null) {
  json doc = comparison_document("writer-a", "writer-planted", true);
  for (const char* key : {"base", "candidate", "summary"}) doc[key] = kMarkup;
  for (const char* key : {"refusals", "invalid", "build_differences", "setting_differences",
                          "only_in_base", "only_in_candidate"}) {
    doc[key] = json::array({kMarkup, nullptr, json::object({{"message", kMarkup}}), 7});
  }
  json& row = doc["rows"][0];
  for (const char* key : {"cell", "metric", "verdict", "reason"}) row[key] = kMarkup;
  doc["rows"][1]["ratio"] = "abc";
  doc["rows"][1]["ci_low"] = nullptr;
  doc["rows"][1]["n_base"] = json::object();
  doc["rows"][2] = json::object();
  doc["rows"].push_back(5);
  doc["rows"].push_back("not a row");
  doc["rows"].push_back(nullptr);
  doc["outcome"] = 7;
  doc["exit_code"] = "one";
  doc["fdr"] = nullptr;
  const std::string page = comparison_to_html(doc);
  EXPECT_EQ(page.find(kMarkup), std::string::npos) << "an unescaped string";
  EXPECT_FALSE(std::regex_search(page, std::regex(R"(<img[\s>/])")));
  EXPECT_GE(occurrences(page, escape(kMarkup)), 12u);
  EXPECT_NE(page.find("class=\"banner outcome unstated\""), std::string::npos);
  EXPECT_NE(page.find("(no exit code stated)"), std::string::npos);
  EXPECT_NE(page.find("<tr class=\"row unstated\""), std::string::npos);
  EXPECT_NE(page.find("no ratio"), std::string::npos);
  EXPECT_NE(page.find("(unnamed cell)"), std::string::npos);
  EXPECT_NE(page.find("(an empty entry)"), std::string::npos);
  // A row that is not an object still shows.
  EXPECT_EQ(occurrences(page, "<tr class=\"row "), doc["rows"].size());
  EXPECT_EQ(raw_value_in_text(page), "");
}

TEST(CompareHtml, any_document_at_all_gives_a_page_that_says_what_it_lacks) {
  for (const json& doc : {json(), json::array(), json("text"), json(42), json::object()}) {
    SCOPED_TRACE(doc.dump());
    const std::string page = comparison_to_html(doc);
    EXPECT_NE(page.find("The document states no outcome."), std::string::npos);
    EXPECT_NE(page.find("does not say it is a jbench.compare_report (schema: none)"),
              std::string::npos);
    EXPECT_NE(page.find("No rows: nothing was compared."), std::string::npos);
    EXPECT_TRUE(page.ends_with("</body>\n</html>\n"));
    EXPECT_EQ(raw_value_in_text(page), "");
  }
}

TEST(CompareHtml, the_same_document_gives_the_same_bytes_and_fetches_nothing) {
  const json doc = comparison_document("writer-a", "writer-planted", true);
  const std::string page = comparison_to_html(doc);
  EXPECT_EQ(page, comparison_to_html(doc));
  EXPECT_FALSE(std::regex_search(page, std::regex(R"((https?:|src=|href=|url\(http))")));
}

}  // namespace
}  // namespace jbench::html_pages
