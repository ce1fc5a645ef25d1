// The engine side of the oracle's line protocol (protocol.h) for an engine written in C++: says
// hello, then answers every request with its Target until quit or the end of input. The fixture
// engines of the tests and the sqlite3-shell adapter (jbench-oracle-sqlite3) serve through it;
// an engine in another language implements docs/oracle-protocol.md itself.
//
//   SqliteTarget db = ...;
//   return serve_protocol(db, std::cin, std::cout, "my engine 1.0");
#pragma once

#include <iosfwd>
#include <string>

#include "jbench/oracle/protocol.h"
#include "jbench/oracle/target.h"

namespace jbench::oracle {

// The engine's hello: its name, whether it keeps prepared statements, its planner switches.
Hello hello_of(const Target& engine, const std::string& engine_name);

// What `engine` answers to one request: a run's result, or for a switch_off an empty result or
// the switch's error (code 1, its message).
ResultSet answer_request(Target& engine, const RunRequest& r);

// 0 after quit or the end of input; 2 after a request that breaks the protocol (said on `err`).
int serve_protocol(Target& engine, std::istream& in, std::ostream& out, std::ostream& err,
                   const std::string& engine_name);

}  // namespace jbench::oracle
