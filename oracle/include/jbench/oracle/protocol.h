// The oracle's line protocol (docs/oracle-protocol.md), version 1: how an engine in its own
// process — an SQL engine built on the Jerboa runtime, a wrapped sqlite3 shell — is played
// against another. One JSON object per line in each direction; every value is an SQL literal
// in a JSON string ("42", "1.5", "'it''s'", "x'00ff'", "NULL"), so its type is never guessed.
//
//   engine -> jbench, once, first:  {"protocol":"jbench-oracle/1","engine":"...","prepared":true,
//                                    "optimizations":["QueryFlattener", ...]}   (optional)
//   jbench -> engine:  {"op":"run","id":7,"sql":"SELECT ?1","params":["42"],"statement":"s1"}
//   jbench -> engine:  {"op":"switch_off","id":8,"names":["PushDown"]}  (all others on again;
//                      answered as a run is, with no rows)
//   engine -> jbench:  {"id":7,"ok":true,"columns":["?1"],"rows":[["42"]]}
//                      {"id":7,"ok":false,"error":{"code":1,"message":"no such table: x"}}
//   jbench -> engine:  {"op":"quit"}          (the engine exits; no answer)
//
// Encoding and decoding only (pure); process_target.h runs an engine, serve.h answers for one.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/common/result.h"
#include "jbench/oracle/result_set.h"

namespace jbench::oracle {

inline constexpr std::string_view kProtocolVersion = "jbench-oracle/1";

struct Hello {
  std::string engine;
  bool prepared = false;
  std::vector<std::string> optimizations;  // planner switches offered (Target::switch_off)
};

struct RunRequest {
  std::uint64_t id = 0;
  std::string sql;
  std::vector<Value> params;
  std::string statement;  // empty: not a prepared statement
  // Set: a switch_off request (sql, params and statement unused) naming the planner switches to
  // turn off, every other one on.
  std::optional<std::vector<std::string>> switch_off = std::nullopt;
};

// Each decode_* gives what the line says, or why it is not that (a protocol violation, in
// words, as an input error).
std::string encode_hello(const Hello& h);
Result<Hello> decode_hello(std::string_view line);

std::string encode_request(const RunRequest& r);
std::string encode_quit();
// A request line: a run or a switch_off, or quit (nullopt).
Result<std::optional<RunRequest>> decode_request(std::string_view line);

std::string encode_response(std::uint64_t id, const ResultSet& r);
// The response to request `id`: its result, or the violation (not JSON, another id, a value
// that is not a literal, rows of different widths, ...).
Result<ResultSet> decode_response(std::string_view line, std::uint64_t id);

}  // namespace jbench::oracle
