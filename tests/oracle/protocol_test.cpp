// The line protocol's encoding (pure): what one side writes the other reads back exactly, every
// value's type survives as an SQL literal, and each way a line can break the protocol is named.
#include "jbench/oracle/protocol.h"

#include <gtest/gtest.h>

#include "jbench/oracle/sql_lexer.h"
#include "value_printer.h"

namespace jbench::oracle {
namespace {

// The query-plan oracle's part: a hello offering planner switches, and a switch_off request.
TEST(Protocol, a_hello_offers_switches_and_a_switch_off_names_them) {
  const auto h = decode_hello(encode_hello({"e", true, {"QueryFlattener", "PushDown"}}));
  ASSERT_TRUE(h) << h.error().message;
  EXPECT_EQ(h->optimizations, (std::vector<std::string>{"QueryFlattener", "PushDown"}));
  const auto none = decode_hello(encode_hello({"e", true, {}}));
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->optimizations.empty());
  EXPECT_NE(encode_hello({"e", true, {}}).find("prepared"), std::string::npos);
  EXPECT_EQ(encode_hello({"e", true, {}}).find("optimizations"), std::string::npos);
  const auto bad = decode_hello(R"({"protocol":"jbench-oracle/1","optimizations":[1]})");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("not a name"), std::string::npos) << bad.error().message;

  RunRequest off;
  off.id = 9;
  off.switch_off = std::vector<std::string>{"PushDown"};
  const auto d = decode_request(encode_request(off));
  ASSERT_TRUE(d) << d.error().message;
  ASSERT_TRUE(d->has_value());  // not quit
  EXPECT_EQ((*d)->id, 9u);
  ASSERT_TRUE((*d)->switch_off);
  EXPECT_EQ(*(*d)->switch_off, std::vector<std::string>{"PushDown"});
  const auto all_on = decode_request(R"({"op":"switch_off","id":3,"names":[]})");
  ASSERT_TRUE(all_on && all_on->has_value());
  EXPECT_TRUE((*all_on)->switch_off->empty());
  EXPECT_FALSE(decode_request(R"({"op":"switch_off","id":3})"));
  EXPECT_FALSE(decode_request(R"({"op":"switch_off","id":3,"names":"PushDown"})"));
}

TEST(Protocol, a_request_and_a_response_read_back_as_written) {
  RunRequest req{7, "SELECT ?1, ?2\n-- it's", {Value::integer(-3), Value::blob("\x01\x02")}, "s1"};
  const auto d = decode_request(encode_request(req));
  ASSERT_TRUE(d) << d.error().message;
  ASSERT_TRUE(d->has_value());  // not quit
  EXPECT_EQ((*d)->id, 7u);
  EXPECT_EQ((*d)->sql, req.sql);
  EXPECT_EQ((*d)->params, req.params);
  EXPECT_EQ((*d)->statement, "s1");

  ResultSet r;
  r.columns = {"a", "b", "c", "d", "e"};
  r.rows = {
      {Value::integer(1), Value::real(1.0), Value::text("x\n'y"), Value::null(), Value::real(0.1)}};
  const auto back = decode_response(encode_response(7, r), 7);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->columns, r.columns);
  EXPECT_EQ(back->rows, r.rows);  // 1.0 stays a real, 0.1 stays the same double
  EXPECT_TRUE(back->ok());

  ResultSet failed;
  failed.error = StatementError{19, "UNIQUE constraint failed: t.a"};
  const auto f = decode_response(encode_response(8, failed), 8);
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->error, failed.error);

  const auto quit = decode_request(encode_quit());
  ASSERT_TRUE(quit) << quit.error().message;
  EXPECT_FALSE(quit->has_value());
}

TEST(Protocol, every_broken_line_is_named) {
  auto why = [](std::string_view line) { return decode_response(line, 3).error().message; };
  EXPECT_NE(why("nope").find("not a JSON object"), std::string::npos);
  EXPECT_NE(why(R"({"id":4,"ok":true})").find("for request 4, not for request 3"),
            std::string::npos);
  EXPECT_NE(why(R"({"id":3})").find("no boolean \"ok\""), std::string::npos);
  EXPECT_NE(why(R"({"id":3,"ok":true,"rows":[[1]]})").find("not a string holding"),
            std::string::npos);
  EXPECT_NE(why(R"({"id":3,"ok":true,"rows":[["1x"]]})").find("not an SQL literal"),
            std::string::npos);
  EXPECT_NE(why(R"({"id":3,"ok":true,"columns":["a"],"rows":[["1","2"]]})")
                .find("row 0 has 2 values where 1 were expected"),
            std::string::npos);
  EXPECT_NE(why(R"({"id":3,"ok":false})").find("\"error\""), std::string::npos);
  EXPECT_NE(decode_hello(R"({"engine":"x"})").error().message.find("not a hello"),
            std::string::npos);
  EXPECT_NE(
      decode_hello(R"({"protocol":"jbench-oracle/2"})").error().message.find("jbench-oracle/2"),
      std::string::npos);
  EXPECT_NE(decode_request(R"({"op":"dance"})").error().message.find("unknown op"),
            std::string::npos);
}

TEST(Protocol, parameters_inline_as_literals_outside_strings_and_comments) {
  auto s = inline_parameters("SELECT ?1, '?1', \"?2\" -- ?2\n, ?2 - ?1",
                             {Value::integer(-5), Value::text("a'b")});
  ASSERT_TRUE(s);
  EXPECT_EQ(*s, "SELECT (-5), '?1', \"?2\" -- ?2\n, ('a''b') - (-5)");
  EXPECT_FALSE(inline_parameters("SELECT ?", {Value::integer(1)}));
  EXPECT_FALSE(inline_parameters("SELECT :a", {Value::integer(1)}));
  EXPECT_FALSE(inline_parameters("SELECT ?2", {Value::integer(1)}));
}

}  // namespace
}  // namespace jbench::oracle
