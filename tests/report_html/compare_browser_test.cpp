// The compare and history pages in a real browser: headless Chromium opens pages rendered from
// documents jbench::compare makes of the checked-in bundles, and the tests check that the page
// ran clean (no recorded error, no console line) and built the rows, verdicts, points and gaps
// the document holds; and that a hostile document's markup stays text. Skipped, with the
// reason, only when no chromium is installed.
#include <gtest/gtest.h>

#include <regex>

#include "compare_documents.h"
#include "jbench/html_pages/compare_html.h"
#include "jbench/html_pages/history_html.h"
#include "page_in_browser.h"
#include "page_text.h"

namespace jbench::test {
namespace {

using nlohmann::json;

class ComparePagesInBrowser : public PageInBrowser {};

TEST_F(ComparePagesInBrowser, the_planted_comparison_shows_its_regressed_rows) {
  const json doc = comparison_document("writer-a", "writer-planted", true);
  const std::string dom =
      clean_dom(write_page("planted.html", html_pages::comparison_to_html(doc)));
  EXPECT_NE(dom.find("class=\"banner outcome regression\""), std::string::npos) << dom;
  ASSERT_GE(doc["rows"].size(), 3u);
  for (const json& row : doc["rows"]) {
    EXPECT_EQ(row["verdict"], "regressed") << row.dump();
    const std::string tr = test::row_markup(row);
    EXPECT_EQ(occurrences(dom, tr), 1u) << tr;
  }
  // A forest plot per metric (one cell: a row each), parsed as SVG.
  EXPECT_EQ(occurrences(dom, "<svg "), doc["rows"].size());
  EXPECT_EQ(occurrences(dom, "class=\"point regressed\""), doc["rows"].size());
}

TEST_F(ComparePagesInBrowser, the_history_shows_its_points_and_the_invalid_copy_as_a_gap) {
  TempDir folder;
  fill_history_folder(folder.path());
  const json doc = history_document(folder.path());
  const std::string dom = clean_dom(write_page("history.html", html_pages::history_to_html(doc)));
  EXPECT_EQ(occurrences(dom, "<tr class=\"bundle-row "), kHistoryBundles);
  EXPECT_EQ(occurrences(dom, "data-usable=\"false\""), 1u);
  EXPECT_NE(dom.find("data-bundle=\"" + std::to_string(kHistoryGapAt) + "\" data-usable=\"false\""),
            std::string::npos);
  const std::size_t series = doc["series"].size();
  ASSERT_GE(series, 3u);
  EXPECT_EQ(occurrences(dom, "<circle "), series * kHistoryPoints);  // the gap is no point
  EXPECT_EQ(occurrences(dom, "<polyline "), series * 2);             // each line broken at the gap
  // Every series changed for the worse at the planted nights: the marker and its list item.
  EXPECT_EQ(occurrences(dom, "class=\"change worse\""), series * 2);
}

TEST_F(ComparePagesInBrowser, hostile_documents_run_none_of_their_markup) {
  json compare_doc = comparison_document("writer-a", "reader");
  compare_doc["base"] = kMarkup;
  compare_doc["only_in_base"] = json::array({kMarkup, nullptr});
  compare_doc["rows"] = json::array({json::object({{"cell", kMarkup}, {"ratio", "x"}}), 3});
  TempDir folder;
  fill_history_folder(folder.path());
  json history_doc = history_document(folder.path());
  history_doc["dir"] = kMarkup;
  history_doc["series"][0]["cell"] = kMarkup;
  history_doc["bundles"][3] = nullptr;
  for (const auto& [name, html] :
       {std::pair{"compare-hostile.html", html_pages::comparison_to_html(compare_doc)},
        std::pair{"history-hostile.html", html_pages::history_to_html(history_doc)}}) {
    SCOPED_TRACE(name);
    const std::string dom = clean_dom(write_page(name, html));
    EXPECT_FALSE(std::regex_search(dom, std::regex(R"(<img[\s>/])")));
    EXPECT_NE(dom.find(serialized_text(kMarkup)), std::string::npos);  // shown, as text
  }
}

}  // namespace
}  // namespace jbench::test
