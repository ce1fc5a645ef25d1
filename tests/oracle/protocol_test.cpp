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
  Decoded<Hello> h = decode_hello(encode_hello({"e", true, {"QueryFlattener", "PushDown"}}));
  ASSERT_TRUE(h.value) << h.error;
  EXPECT_EQ(h.value->optimizations, (std::vector<std::string>{"QueryFlattener", "PushDown"}));
  Decoded<Hello> none = decode_hello(encode_hello({"e", true, {}}));
  ASSERT_TRUE(none.value);
  EXPECT_TRUE(none.value->optimizations.empty());
  EXPECT_NE(encode_hello({"e", true, {}}).find("prepared"), std::string::npos);
  EXPECT_EQ(encode_hello({"e", true, {}}).find("optimizations"), std::string::npos);
  Decoded<Hello> bad = decode_hello(R"({"protocol":"jbench-oracle/1","optimizations":[1]})");
  EXPECT_FALSE(bad.value);
  EXPECT_NE(bad.error.find("not a name"), std::string::npos) << bad.error;

  RunRequest off;
  off.id = 9;
  off.switch_off = std::vector<std::string>{"PushDown"};
  bool quit = true;
  Decoded<RunRequest> d = decode_request(encode_request(off), quit);
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_FALSE(quit);
  EXPECT_EQ(d.value->id, 9u);
  ASSERT_TRUE(d.value->switch_off);
  EXPECT_EQ(*d.value->switch_off, std::vector<std::string>{"PushDown"});
  Decoded<RunRequest> all_on = decode_request(R"({"op":"switch_off","id":3,"names":[]})", quit);
  ASSERT_TRUE(all_on.value) << all_on.error;
  EXPECT_TRUE(all_on.value->switch_off->empty());
  EXPECT_FALSE(decode_request(R"({"op":"switch_off","id":3})", quit).value);
  EXPECT_FALSE(decode_request(R"({"op":"switch_off","id":3,"names":"PushDown"})", quit).value);
}

TEST(Protocol, a_request_and_a_response_read_back_as_written) {
  RunRequest req{7, "SELECT ?1, ?2\n-- it's", {Value::integer(-3), Value::blob("\x01\x02")}, "s1"};
  bool quit = true;
  Decoded<RunRequest> d = decode_request(encode_request(req), quit);
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_FALSE(quit);
  EXPECT_EQ(d.value->id, 7u);
  EXPECT_EQ(d.value->sql, req.sql);
  EXPECT_EQ(d.value->params, req.params);
  EXPECT_EQ(d.value->statement, "s1");

  ResultSet r;
  r.columns = {"a", "b", "c", "d", "e"};
  r.rows = {
      {Value::integer(1), Value::real(1.0), Value::text("x\n'y"), Value::null(), Value::real(0.1)}};
  Decoded<ResultSet> back = decode_response(encode_response(7, r), 7);
  ASSERT_TRUE(back.value) << back.error;
  EXPECT_EQ(back.value->columns, r.columns);
  EXPECT_EQ(back.value->rows, r.rows);  // 1.0 stays a real, 0.1 stays the same double
  EXPECT_TRUE(back.value->ok());

  ResultSet failed;
  failed.error = StatementError{19, "UNIQUE constraint failed: t.a"};
  Decoded<ResultSet> f = decode_response(encode_response(8, failed), 8);
  ASSERT_TRUE(f.value) << f.error;
  EXPECT_EQ(f.value->error, failed.error);

  EXPECT_FALSE(decode_request(encode_quit(), quit).value);
  EXPECT_TRUE(quit);
}

TEST(Protocol, every_broken_line_is_named) {
  auto why = [](std::string_view line) { return decode_response(line, 3).error; };
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
  EXPECT_NE(decode_hello(R"({"engine":"x"})").error.find("not a hello"), std::string::npos);
  EXPECT_NE(decode_hello(R"({"protocol":"jbench-oracle/2"})").error.find("jbench-oracle/2"),
            std::string::npos);
  bool quit = false;
  EXPECT_NE(decode_request(R"({"op":"dance"})", quit).error.find("unknown op"), std::string::npos);
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
