// The jbench.events text primitives (core/events/c/include/jb_events_text.h) that every writer
// shares: the UTF-8 check, JSON escaping in chunks, decimals and span ids, at their edges.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "jb_events_lines.h"
#include "jb_events_text.h"
#include "jbench/events/event_text.h"

namespace {

std::string escape(const std::string& text, std::size_t cap = 256) {
  std::string out;
  std::string chunk(cap, '\0');
  const char* rest = text.c_str();
  while (*rest) out.append(chunk.data(), jb_events_json_escape(&rest, chunk.data(), cap));
  return out;
}

std::size_t utf8(const char* s) {
  return jb_events_utf8_length(reinterpret_cast<const unsigned char*>(s));
}

TEST(EventsText, utf8_accepts_well_formed_sequences_only) {
  EXPECT_EQ(utf8("\xC3\xA9"), 2u);          // é
  EXPECT_EQ(utf8("\xE2\x82\xAC"), 3u);      // €
  EXPECT_EQ(utf8("\xF0\x9F\x98\x80"), 4u);  // U+1F600
  EXPECT_EQ(utf8("\xC0\xAF"), 0u);          // overlong '/'
  EXPECT_EQ(utf8("\xE0\x80\xAF"), 0u);      // overlong, three bytes
  EXPECT_EQ(utf8("\xED\xA0\x80"), 0u);      // a surrogate
  EXPECT_EQ(utf8("\xF4\x90\x80\x80"), 0u);  // past U+10FFFF
  EXPECT_EQ(utf8("\xE2\x82"), 0u);          // cut by the NUL
  EXPECT_EQ(utf8("\x80"), 0u);              // a lone continuation byte
  EXPECT_EQ(utf8("a"), 0u);                 // ASCII is not a sequence
}

TEST(EventsText, quotes_controls_and_invalid_bytes_are_escaped) {
  EXPECT_EQ(escape("plain"), "plain");
  EXPECT_EQ(escape("a\"b\\c"), "a\\\"b\\\\c");
  EXPECT_EQ(escape("tab\there\n\x1f"), "tab\\u0009here\\u000a\\u001f");
  EXPECT_EQ(escape("caf\xC3\xA9"), "caf\xC3\xA9");
  EXPECT_EQ(escape("bad\xFF!"), "bad\\ufffd!");
  EXPECT_EQ(escape("cut\xE2\x82"), "cut\\ufffd\\ufffd");
}

TEST(EventsText, escaping_in_small_chunks_writes_whole_units_only) {
  const std::string text = "a\"\x01\xF0\x9F\x98\x80\xFFz";
  const std::string whole = escape(text);
  for (std::size_t cap = JB_EVENTS_ESCAPE_UNIT_MAX; cap < 24; ++cap) {
    EXPECT_EQ(escape(text, cap), whole) << "cap " << cap;
  }
  char buf[4];
  const char* rest = "\x01";
  EXPECT_EQ(jb_events_json_escape(&rest, buf, sizeof buf), 0u);  // "\u0001" does not fit
  EXPECT_EQ(*rest, '\x01');
}

TEST(EventsText, decimals_match_to_string_at_every_width) {
  char buf[JB_EVENTS_DECIMAL_MAX];
  std::uint64_t v = 1;
  for (int digits = 1; digits <= 20; ++digits, v *= 10) {
    for (const std::uint64_t x : {v - 1, v, v + 7}) {
      EXPECT_EQ(std::string(buf, jb_events_format_u64(buf, x)), std::to_string(x));
    }
    if (digits == 20) break;  // 10^20 does not fit
  }
  const std::uint64_t umax = std::numeric_limits<std::uint64_t>::max();
  EXPECT_EQ(std::string(buf, jb_events_format_u64(buf, umax)), "18446744073709551615");
  const std::int64_t imin = std::numeric_limits<std::int64_t>::min();
  EXPECT_EQ(std::string(buf, jb_events_format_i64(buf, imin)), "-9223372036854775808");
  EXPECT_EQ(std::string(buf, jb_events_format_i64(buf, -42)), "-42");
  EXPECT_EQ(std::string(buf, jb_events_format_i64(buf, 0)), "0");
}

TEST(EventsText, span_ids_are_sixteen_hex_digits) {
  char buf[JB_EVENTS_SPAN_ID_DIGITS];
  jb_events_format_span_id(buf, 0xa1);
  EXPECT_EQ(std::string(buf, sizeof buf), "00000000000000a1");
  jb_events_format_span_id(buf, 0xfedcba9876543210u);
  EXPECT_EQ(std::string(buf, sizeof buf), "fedcba9876543210");
}

TEST(EventsText, the_fixed_text_spells_the_schema_once) {
  EXPECT_STREQ(JB_EVENTS_HEADER_BEGIN,
               R"({"kind":"header","schema":"jbench.events","schema_version":1,)");
  EXPECT_STREQ(JB_EVENTS_TRAILER_RECORDS "5" JB_EVENTS_TRAILER_DROPPED
                                         "0" JB_EVENTS_TRAILER_CLEAN_END,
               "{\"kind\":\"trailer\",\"records\":5,\"dropped\":0,\"malformed\":0,"
               "\"ended\":{\"how\":\"exit\",\"code\":0}}\n");
}

}  // namespace

namespace jbench::events {
namespace {

std::string as_json_string(std::string_view text) {
  std::string out;
  append_json_string(out, text);
  return out;
}

TEST(EventsJsonString, plain_text_is_quoted_as_it_is) {
  EXPECT_EQ(as_json_string("/tmp/db.sqlite"), "\"/tmp/db.sqlite\"");
  EXPECT_EQ(as_json_string(""), "\"\"");
}

TEST(EventsJsonString, any_bytes_read_back_as_the_text_with_invalid_bytes_replaced) {
  using namespace std::string_literals;
  const std::string nasty = "a\"b\\c\n\x01 \xC3\xA9 \xff"s + '\0' + "z"s;
  const auto parsed = nlohmann::json::parse(as_json_string(nasty));
  EXPECT_EQ(parsed.get<std::string>(),
            "a\"b\\c\n\x01 \xC3\xA9 \xEF\xBF\xBD"s + '\0' + "z"s);  // 0xff: U+FFFD
}

TEST(EventsJsonString, integers_and_decimals_are_appended_in_full) {
  std::string out;
  append_int(out, std::numeric_limits<std::int64_t>::min());
  out += ' ';
  append_decimal(out, std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(out, "-9223372036854775808 18446744073709551615");
}

}  // namespace
}  // namespace jbench::events
