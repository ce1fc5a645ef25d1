#include "jbench/common/text.h"

#include <gtest/gtest.h>

#include <array>

#include "jbench/common/diagnostic.h"
#include "jbench/common/run_status.h"
#include "jbench/common/sha256.h"
#include "jbench/common/trace_mode.h"
#include "jbench/common/word_index.h"

namespace jbench {
namespace {

TEST(Utf8, accepts_well_formed_text) {
  EXPECT_FALSE(first_invalid_utf8("plain ascii").has_value());
  EXPECT_FALSE(first_invalid_utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80").has_value());
}

TEST(Utf8, finds_the_first_malformed_byte) {
  EXPECT_EQ(first_invalid_utf8("ab\xff"), 2u);            // never valid
  EXPECT_EQ(first_invalid_utf8("a\xc3"), 1u);             // truncated sequence
  EXPECT_EQ(first_invalid_utf8("\xc0\xaf"), 0u);          // overlong '/'
  EXPECT_EQ(first_invalid_utf8("x\xed\xa0\x80"), 1u);     // UTF-16 surrogate
  EXPECT_EQ(first_invalid_utf8("\xf4\x90\x80\x80"), 0u);  // past U+10FFFF
}

// Every word of a table parses to its own enum and back; anything else, a near miss included,
// parses to nothing.
TEST(WordIndex, every_word_is_its_own_place_and_nothing_else_is_one) {
  for (std::size_t i = 0; i < kRunStatusWords.size(); ++i) {
    EXPECT_EQ(word_index(kRunStatusWords, kRunStatusWords[i]), i);
    const auto status = run_status_from_name(kRunStatusWords[i]);
    ASSERT_TRUE(status.has_value());
    EXPECT_EQ(run_status_name(*status), kRunStatusWords[i]);
  }
  for (std::size_t i = 0; i < kTraceValues.size(); ++i) {
    const auto mode = trace_mode_from_name(kTraceValues[i]);
    ASSERT_TRUE(mode.has_value());
    EXPECT_EQ(trace_mode_name(*mode), kTraceValues[i]);
  }
  for (const std::string_view miss : {"", "OK", "ok ", "no_consumer", "not-run"}) {
    EXPECT_FALSE(word_index(kRunStatusWords, miss).has_value()) << miss;
    EXPECT_FALSE(trace_mode_from_name(miss).has_value()) << miss;
  }
  static_assert(word_enum<TraceMode>(kTraceValues, "full") == TraceMode::full);
}

TEST(LineColumn, counts_from_one) {
  const auto lc = line_column_at("ab\ncd\ne", 4);
  EXPECT_EQ(lc.line, 2u);
  EXPECT_EQ(lc.column, 2u);
}

TEST(ClosestMatch, suggests_typos_but_not_unrelated_words) {
  constexpr std::array<std::string_view, 3> keys = {"workers", "connection", "dataset"};
  EXPECT_EQ(closest_match("worker", keys), "workers");
  EXPECT_EQ(closest_match("conection", keys), "connection");
  EXPECT_FALSE(closest_match("banana", keys).has_value());
}

TEST(Diagnostic, formats_file_line_column_and_path) {
  EXPECT_EQ(format_diagnostic({{"m.yaml", 3, 5}, "axes.workers[1]", "bad"}),
            "m.yaml:3:5: error: axes.workers[1]: bad");
  EXPECT_EQ(format_diagnostic({{"m.yaml", 0, 0}, "", "no such file"}),
            "m.yaml: error: no such file");
}

TEST(Diagnostics, are_sorted_by_position) {
  const auto text = format_diagnostics({{{"f", 9, 1}, "", "late"}, {{"f", 2, 4}, "", "early"}});
  EXPECT_EQ(text, "f:2:4: error: early\nf:9:1: error: late\n");
}

TEST(Sha256, matches_the_standard_digest) {
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

}  // namespace
}  // namespace jbench
