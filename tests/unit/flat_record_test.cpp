// The record-line reader shared by the validator, the report and the export: flat objects read
// as views, everything else refused for the full parser; lines read through a fixed buffer.
#include "jbench/events/flat_record.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "jbench/events/line_reader.h"
#include "temp_dir.h"

namespace jbench::events {
namespace {

TEST(FlatRecord, reads_strings_integers_null_and_booleans_by_key) {
  FlatRecord r;
  ASSERT_TRUE(r.parse(R"({"kind":"record","fd":-100,"t_ns":"18446744073709551615","p":null,)"
                      R"("ok":true, "path" : "/a\"b\\c\n"})"));
  EXPECT_EQ(r.string("kind"), "record");
  EXPECT_EQ(r.integer("fd"), -100);
  EXPECT_EQ(r.decimal("t_ns"), 18446744073709551615ULL);
  EXPECT_TRUE(r.is_null("p"));
  EXPECT_EQ(r.find("ok")->number, 1);
  EXPECT_EQ(r.string("path"), "/a\"b\\c\n");
  EXPECT_EQ(r.string("fd"), std::nullopt);  // a number is not a string
  EXPECT_EQ(r.find("absent"), nullptr);
}

TEST(FlatRecord, decimals_must_be_canonical) {
  FlatRecord r;
  ASSERT_TRUE(r.parse(R"({"a":"007","b":"-1","c":"18446744073709551616","d":"0","e":7})"));
  EXPECT_EQ(r.decimal("a"), std::nullopt);
  EXPECT_EQ(r.decimal("b"), std::nullopt);
  EXPECT_EQ(r.decimal("c"), std::nullopt);  // past 2^64 - 1
  EXPECT_EQ(r.decimal("d"), 0u);
  EXPECT_EQ(r.decimal("e"), std::nullopt);  // an integer, not a decimal string
}

TEST(FlatRecord, anything_not_flat_is_refused) {
  FlatRecord r;
  for (const char* line :
       {R"({"a":[1]})", R"({"a":{"b":1}})", R"({"a":1.5})", R"({"a":1e3})", R"({"a":"\u0041"})",
        R"({"a":1,"a":2})", R"({"a":1} x)", R"({"a":)", R"([1])", "", R"({"a":"x)"}) {
    EXPECT_FALSE(r.parse(line)) << line;
  }
  EXPECT_TRUE(r.parse("{}"));
  EXPECT_TRUE(r.fields().empty());
}

TEST(FlatRecord, escaped_strings_stay_valid_while_more_fields_are_read) {
  FlatRecord r;
  std::string line = "{";
  for (int i = 0; i < 40; ++i)
    line += (i ? "," : "") + ("\"k" + std::to_string(i) + "\":\"v\\t" + std::to_string(i) + "\"");
  line += "}";
  ASSERT_TRUE(r.parse(line));
  for (int i = 0; i < 40; ++i)
    EXPECT_EQ(r.string("k" + std::to_string(i)), "v\t" + std::to_string(i));
}

TEST(LineReader, gives_every_line_with_its_number_across_buffer_boundaries) {
  test::TempDir dir;
  std::string text;
  std::vector<std::string> written;
  // Lines of varied length so some straddle the 1 MiB read buffer; the last has no newline.
  for (int i = 0; i < 30000; ++i) {
    written.push_back(std::string(static_cast<std::size_t>(i % 97), 'x') + std::to_string(i));
    text += written.back();
    if (i + 1 < 30000) text += '\n';
  }
  const auto path = dir.write("lines", text);
  std::vector<std::string> seen;
  const auto r = for_each_line(
      path, 1 << 20,
      [&](std::size_t n, std::string_view line) {
        EXPECT_EQ(n, seen.size() + 1);
        seen.emplace_back(line);
        return true;
      },
      [](std::size_t n) { ADD_FAILURE() << "line " << n << " is not overlong"; });
  EXPECT_TRUE(r.error.empty());
  EXPECT_EQ(r.bytes, text.size());
  EXPECT_EQ(seen, written);
}

TEST(LineReader, refuses_overlong_lines_without_holding_them_and_can_stop) {
  test::TempDir dir;
  const auto path = dir.write("lines", "a\n" + std::string(3000000, 'y') + "\nb\nc\n");
  std::vector<std::string> seen;
  std::vector<std::size_t> overlong;
  auto r = for_each_line(
      path, 1000,
      [&](std::size_t, std::string_view line) {
        seen.emplace_back(line);
        return true;
      },
      [&](std::size_t n) { overlong.push_back(n); });
  EXPECT_EQ(seen, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(overlong, std::vector<std::size_t>{2});
  EXPECT_EQ(r.lines, 4u);

  seen.clear();
  r = for_each_line(
      path, 1000,
      [&](std::size_t, std::string_view line) {
        seen.emplace_back(line);
        return false;
      },
      [](std::size_t) {});
  EXPECT_TRUE(r.stopped);
  EXPECT_EQ(seen, std::vector<std::string>{"a"});
  EXPECT_FALSE(for_each_line(
                   dir.path() + "/absent", 10, [](std::size_t, std::string_view) { return true; },
                   [](std::size_t) {})
                   .error.empty());
}

}  // namespace
}  // namespace jbench::events
