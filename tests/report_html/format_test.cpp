// The page's number formatting and escaping: how a share, a time and an interval are written,
// and that nothing a report carries can open a tag.
#include "format.h"

#include <gtest/gtest.h>

#include "html_escape.h"

namespace jbench::html_pages {
namespace {

using nlohmann::json;

TEST(ReportHtmlFormat, percent_keeps_two_significant_digits) {
  EXPECT_EQ(percent(0.58), "58%");
  EXPECT_EQ(percent(0.062), "6.2%");
  EXPECT_EQ(percent(0.004), "0.40%");
  EXPECT_EQ(percent(0.0), "0%");
  EXPECT_EQ(percent(1.0), "100%");
  EXPECT_EQ(percent(0.998), "99.8%");  // not rounded up to all of it
  EXPECT_EQ(percent(0.99999), "99.9%");
}

TEST(ReportHtmlFormat, interval_ends_share_one_precision) {
  EXPECT_EQ(percent_interval(0.54, 0.61), "[54–61]");
  EXPECT_EQ(percent_interval(0.04, 0.06), "[4.0–6.0]");
  EXPECT_EQ(percent_interval(0.09, 0.12), "[9.0–12.0]");
}

TEST(ReportHtmlFormat, durations_carry_their_unit) {
  EXPECT_EQ(duration(850), "850 ns");
  EXPECT_EQ(duration(4877), "4.88 µs");
  EXPECT_EQ(duration(2900000), "2.9 ms");
  EXPECT_EQ(duration(251000000), "251 ms");
  EXPECT_EQ(duration(1250000000), "1.25 s");
  EXPECT_EQ(duration(999700), "1 ms");  // the unit follows the rounded value
  EXPECT_EQ(duration(0), "0 ns");
}

TEST(ReportHtmlFormat, numbers_are_read_from_numbers_and_decimal_strings_only) {
  EXPECT_EQ(number(json(2.5)), 2.5);
  EXPECT_EQ(number(json("251000000")), 251000000.0);
  EXPECT_FALSE(number(json()).has_value());
  EXPECT_FALSE(number(json("")).has_value());
  EXPECT_FALSE(number(json("12abc")).has_value());
  EXPECT_FALSE(number(json("nan")).has_value());
  EXPECT_FALSE(number(json::object()).has_value());
}

TEST(ReportHtmlFormat, fields_of_non_objects_are_null) {
  EXPECT_TRUE(field(json(3), "x").is_null());
  EXPECT_TRUE(field(json::object(), "x").is_null());
  EXPECT_TRUE(array_or_empty(json("x")).empty());
  EXPECT_EQ(text(json()), "");
  EXPECT_EQ(text(json(4)), "4");
}

TEST(ReportHtmlEscape, escapes_markup_and_both_quotes) {
  EXPECT_EQ(escape("</script><img src=x onerror=alert(1)>"),
            "&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;");
  EXPECT_EQ(escape("a&b \"c\" 'd'"), "a&amp;b &quot;c&quot; &#39;d&#39;");
  EXPECT_EQ(escape(std::string_view("a\0b", 3)),
            "a\xEF\xBF\xBD"
            "b");
}

}  // namespace
}  // namespace jbench::html_pages
