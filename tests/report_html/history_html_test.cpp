// The history page as text, rendered from what jbench::compare reads of a folder of copies of
// the checked-in bundles (eight nights, an invalid one, eight planted nights): every bundle
// listed with the gap as a gap, each series a line broken at the gap with its change point
// marked; a hostile document escaped and read without throwing; a year of nights kept small.
#include "jbench/html_pages/history_html.h"

#include <gtest/gtest.h>

#include "compare_documents.h"
#include "html_escape.h"
#include "page_text.h"
#include "temp_dir.h"

namespace jbench::html_pages {
namespace {

using nlohmann::json;
using test::kMarkup;
using test::occurrences;
using test::raw_value_in_text;

// The text between the first `from` at or after `at` and the next `to`.
std::string between(const std::string& page, const std::string& from, const std::string& to,
                    std::size_t at = 0) {
  const std::size_t a = page.find(from, at);
  if (a == std::string::npos) return "";
  const std::size_t b = page.find(to, a);
  return page.substr(a, b == std::string::npos ? std::string::npos : b - a);
}

class HistoryHtml : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    test::TempDir dir;
    test::fill_history_folder(dir.path());
    doc_ = new json(test::history_document(dir.path()));
  }
  static void TearDownTestSuite() { delete doc_; }
  static const json& doc() { return *doc_; }

 private:
  static json* doc_;
};
json* HistoryHtml::doc_ = nullptr;

TEST_F(HistoryHtml, lists_every_bundle_in_order_with_the_invalid_one_as_a_gap) {
  ASSERT_EQ(doc()["bundles"].size(), test::kHistoryBundles);
  const std::string page = history_to_html(doc());
  EXPECT_NE(page.find("class=\"banner outcome regression\" id=\"outcome\" "
                      "data-outcome=\"regression\" data-exit-code=\"1\""),
            std::string::npos);
  EXPECT_EQ(occurrences(page, "<tr class=\"bundle-row usable\""), test::kHistoryPoints);
  EXPECT_EQ(occurrences(page, "<tr class=\"bundle-row gap\""), 1u);
  const std::string gap = between(
      page, "<tr class=\"bundle-row gap\" data-bundle=\"8\" data-usable=\"false\">", "</tr>");
  ASSERT_NE(gap, "");
  EXPECT_NE(gap.find("x-edited"), std::string::npos) << gap;
  EXPECT_NE(gap.find("gap: invalid"), std::string::npos) << gap;
  EXPECT_NE(page.find("17 bundles: 16 usable, 1 gap"), std::string::npos);
  EXPECT_EQ(raw_value_in_text(page), "");
}

TEST_F(HistoryHtml, each_series_is_a_line_broken_at_the_gap_with_its_change_marked) {
  const std::string page = history_to_html(doc());
  ASSERT_GE(doc()["series"].size(), 3u);  // throughput, p50, p99 and the recorded counters
  for (const json& s : doc()["series"]) {
    SCOPED_TRACE(s["metric"].get<std::string>());
    const std::string head = "<figure class=\"series\" data-cell=\"" +
                             s["cell"].get<std::string>() + "\" data-metric=\"" +
                             s["metric"].get<std::string>() + "\" data-points=\"16\" " +
                             "data-gaps=\"1\" data-changes=\"1\">";
    const std::string figure = between(page, head, "</figure>");
    ASSERT_NE(figure, "") << head;
    EXPECT_EQ(occurrences(figure, "<circle "), test::kHistoryPoints);  // the gap is no point
    EXPECT_EQ(occurrences(figure, "<polyline "), 2u);  // one run each side of the gap
    EXPECT_EQ(occurrences(figure, "<rect "), 1u);
    EXPECT_NE(figure.find("<title>#9 has no value: invalid"), std::string::npos);
    // The change: at the first planted night (#10), for the worse, drawn and listed.
    EXPECT_EQ(occurrences(figure, "class=\"change worse\"><title>change at #10 "), 1u);
    EXPECT_NE(figure.find("<li class=\"change worse\" data-bundle=\"9\">at #10 "),
              std::string::npos);
  }
  const std::string throughput = between(page, "data-metric=\"throughput_ops_per_s\"", "</figure>");
  EXPECT_NE(throughput.find("(revisions 3e7157028fce → 3e7157028fce): "), std::string::npos);
  EXPECT_NE(throughput.find(" ops/s → 3650 ops/s, ×0.07, p "), std::string::npos) << throughput;
}

TEST_F(HistoryHtml, a_year_of_nights_over_dozens_of_series_stays_small) {
  json big = doc();
  json bundles = json::array(), series = json::array();
  for (int i = 0; i < 365; ++i) bundles.push_back(doc()["bundles"][i % 8]);
  for (int k = 0; k < 36; ++k) {
    json s = doc()["series"][k % 3];
    s["cell"] = "w" + std::to_string(k) + ".persistent.writer.small.baseline";
    s["bundles"] = json::array();
    s["values"] = json::array();
    for (int i = 0; i < 365; ++i) {
      if (i % 50 == 7) continue;  // a gap now and then
      s["bundles"].push_back(i);
      s["values"].push_back(1000 + i % 17);
    }
    series.push_back(s);
  }
  big["bundles"] = bundles;
  big["series"] = series;
  const std::string page = history_to_html(big);
  EXPECT_EQ(occurrences(page, "<circle "), 36u * (365 - 8));
  // About 125 bytes a value: its circle and title, its share of the line and of the table.
  EXPECT_LT(page.size() / (36 * 365), 135u) << page.size() << " bytes";
  EXPECT_NE(page.find("<details><summary>365 bundles"), std::string::npos);  // folded
}

TEST_F(HistoryHtml, a_hostile_document_is_escaped_and_what_is_garbled_is_left_out) {
  json h = doc();
  h["dir"] = kMarkup;
  h["summary"] = kMarkup;
  h["bundles"][0]["revision"] = kMarkup;
  h["bundles"][1]["gap_reason"] = kMarkup;
  h["bundles"][1]["usable"] = "yes";  // not true: a gap
  h["bundles"][2] = 17;
  json& s = h["series"][0];
  s["cell"] = kMarkup;
  s["metric"] = kMarkup;
  s["bundles"][0] = "x";
  s["bundles"][1] = -1;
  s["bundles"][2] = 1e300;
  s["values"][3] = nullptr;
  s["changes"][0]["bundle"] = nullptr;
  s["changes"][0]["from_revision"] = kMarkup;
  s["changes"].push_back("not a change");
  h["series"][1]["bundles"] = "not a list";
  h["series"].push_back(nullptr);
  const std::string page = history_to_html(h);
  EXPECT_EQ(page.find(kMarkup), std::string::npos) << "an unescaped string";
  EXPECT_GE(occurrences(page, escape(kMarkup)), 6u);
  EXPECT_NE(page.find("data-points=\"12\""), std::string::npos);  // four garbled points left out
  EXPECT_NE(page.find("data-points=\"0\""), std::string::npos);
  EXPECT_NE(page.find("at an unnamed bundle"), std::string::npos);
  EXPECT_NE(page.find("(unnamed cell)"), std::string::npos);
  EXPECT_EQ(occurrences(page, "<tr class=\"bundle-row gap\""), 3u);  // #9 and the garbled two
  EXPECT_EQ(raw_value_in_text(page), "");
  for (const json& d : {json(), json::array(), json("text"), json::object()}) {
    const std::string p = history_to_html(d);
    EXPECT_NE(p.find("The document states no outcome."), std::string::npos);
    EXPECT_NE(p.find("No series"), std::string::npos);
    EXPECT_EQ(raw_value_in_text(p), "");
  }
}

}  // namespace
}  // namespace jbench::html_pages
