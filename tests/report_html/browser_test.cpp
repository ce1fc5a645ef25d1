// The attribution page in a real browser: headless Chromium opens the rendered fixtures from
// file:// and the tests check what it built (--dump-dom), what it logged (console messages on
// stderr, and the page's own error recorder on <html>), and what it drew (--screenshot, decoded).
// Each launch is bounded and leaves no process (headless_chromium.h). Skipped, with the reason,
// only when no chromium is installed.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <unordered_map>

#include "fixtures.h"
#include "jbench/html_pages/attribution_html.h"
#include "page_in_browser.h"
#include "png_pixels.h"

namespace jbench::test {
namespace {

class AttributionPageInBrowser : public PageInBrowser {
 protected:
  std::string render(const std::string& fixture) {
    return write_page(fixture + ".html",
                      html_pages::attribution_to_html(attribution_fixture(fixture)));
  }
};

TEST_F(AttributionPageInBrowser, shows_the_dominant_cost_sentence_without_errors) {
  const nlohmann::json report = attribution_fixture("example.json");
  const BrowserRun run = dump_dom(render("example.json"));
  ASSERT_TRUE(run.ok);
  const nlohmann::json& cell = report["cells"][0];
  const std::string element = "<p class=\"dominant-cost\" data-cell=\"" +
                              cell["cell"].get<std::string>() + "\" data-mode=\"full\">" +
                              serialized_text(cell["sentence"].get<std::string>()) + "</p>";
  EXPECT_NE(run.out.find(element), std::string::npos) << "not in the DOM: " << element;
  EXPECT_EQ(recorded_errors(run.out), "0") << recorded_error_log(run.out);
  EXPECT_EQ(joined(console_lines(run.err)), "");
  // The three kinds of plot reached the DOM as SVG.
  for (const char* mark : {"class=\"segment\"", "class=\"band\"", "class=\"unity\""}) {
    EXPECT_NE(run.out.find(mark), std::string::npos) << mark;
  }
}

// The overview reaches the DOM first, a square per row with the row's own figures, and the
// account each square links to is there.
TEST_F(AttributionPageInBrowser, shows_the_overview_grid_with_the_reports_figures) {
  const nlohmann::json report = attribution_fixture("example.json");
  const BrowserRun run = dump_dom(render("example.json"));
  ASSERT_TRUE(run.ok);
  const auto overview = run.out.find("<section id=\"overview\">");
  ASSERT_NE(overview, std::string::npos);
  EXPECT_LT(overview, run.out.find("<section id=\"dominant-costs\">"));
  const nlohmann::json& row = report["overview"][0];
  const auto square =
      run.out.find("data-cell=\"" + row["cell"].get<std::string>() + "\"", overview);
  ASSERT_NE(square, std::string::npos);
  const std::string text = run.out.substr(square, 800);
  const auto percent = [](double share) { return std::to_string(std::lround(share * 100)) + "%"; };
  for (const std::string& expected :
       {serialized_text(row["largest"].get<std::string>()),
        percent(row["largest_share"].get<double>()),
        "rest " + percent(row["rest_share"].get<double>()),
        "cost ×" + std::to_string(row["cost_ratio"].get<double>()).substr(0, 4)}) {
    EXPECT_NE(text.find(expected), std::string::npos) << expected << " not in " << text;
  }
  EXPECT_NE(run.out.find("id=\"account-0\""), std::string::npos);
  EXPECT_EQ(recorded_errors(run.out), "0") << recorded_error_log(run.out);
  EXPECT_EQ(joined(console_lines(run.err)), "");
}

TEST_F(AttributionPageInBrowser, runs_none_of_the_markup_a_hostile_bundle_carries) {
  const BrowserRun run = dump_dom(render("sparse-hostile.json"));
  ASSERT_TRUE(run.ok);
  EXPECT_FALSE(std::regex_search(run.out, std::regex(R"(<img[\s>/])"))) << run.out;
  EXPECT_EQ(run.out.find("onerror=alert(1)>"), std::string::npos) << "an unescaped tag";
  // The markup is there as text, to be read.
  EXPECT_NE(run.out.find(serialized_text(kHostile)), std::string::npos);
  EXPECT_NE(run.out.find("INVALID BUNDLE"), std::string::npos);
  EXPECT_EQ(recorded_errors(run.out), "0") << recorded_error_log(run.out);
  EXPECT_EQ(joined(console_lines(run.err)), "");
  std::ptrdiff_t sentences = 0;
  for (std::size_t at = 0; (at = run.out.find("class=\"dominant-cost\"", at)) != std::string::npos;
       ++at) {
    ++sentences;
  }
  EXPECT_EQ(sentences, 2);  // one per cell, the one without a sentence included
}

TEST_F(AttributionPageInBrowser, draws_a_picture_that_is_not_blank) {
  for (const char* fixture : {"example.json", "sparse-hostile.json"}) {
    SCOPED_TRACE(fixture);
    const std::string shot = tmp_.path() + "/" + fixture + ".png";
    const BrowserRun run = open(
        render(fixture), {"--hide-scrollbars", "--window-size=1200,2000", "--screenshot=" + shot});
    ASSERT_TRUE(run.ok);
    const PngImage image = decode_png(read_file(shot));
    ASSERT_EQ(image.error, "");
    EXPECT_EQ(image.width, 1200u);
    EXPECT_EQ(image.height, 2000u);
    std::unordered_map<std::uint32_t, std::size_t> colours;
    for (const std::uint32_t p : image.pixels) ++colours[p];
    EXPECT_GT(colours.size(), 16u) << "the screenshot is (nearly) one colour";
    // The first part's bar segment is drawn in the palette's first colour, a solid block of
    // at least half its 28-pixel height times the width a 58% or 70% share gets.
    EXPECT_GT(colours[0x4e79a7], 28u * 200u) << "no bar segment in the screenshot";
  }
}

// The detectors the other tests rely on do fire: a page that tries to fetch an image is blocked
// by its policy, and both the recorder and Chromium's console log say so.
TEST_F(AttributionPageInBrowser, a_fetch_the_page_tries_is_blocked_and_reported) {
  std::string html = html_pages::attribution_to_html(attribution_fixture("example.json"));
  html.insert(html.find("</body>"), "<img src=\"http://127.0.0.1:9/pixel.png\">");
  const BrowserRun run = dump_dom(write_page("fetching.html", html));
  ASSERT_TRUE(run.ok);
  EXPECT_NE(recorded_errors(run.out), "0");
  EXPECT_NE(recorded_error_log(run.out).find("blocked by the page policy"), std::string::npos)
      << recorded_error_log(run.out);
  EXPECT_NE(joined(console_lines(run.err)).find("Content Security Policy"), std::string::npos)
      << run.err;
}

}  // namespace
}  // namespace jbench::test
