// The engine interface the runner plays statements against, so that a target and an oracle can
// be any two engines (two SQLite configurations, an external process, a deliberately wrong
// fixture) and the runner stays pure over it.
//
//   ResultSet r = target.run("SELECT ?1 + 1", {Value::integer(41)});
//   std::cout << target.name();   // "sqlite::memory:"
//
// run() reports failures in the ResultSet (`error` set), never by throwing: an error is a result
// to compare like any other. An engine that cannot answer at all (it crashed, hung past its
// deadline, or said something that is not a result) sets `engine_failure` instead: that is a
// finding about the engine, never compared as a result.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "jbench/common/result.h"
#include "jbench/oracle/result_set.h"

namespace jbench::oracle {

class Target {
 public:
  virtual ~Target() = default;

  // Runs one statement with `params` bound to ?1..?N in order.
  virtual ResultSet run(std::string_view sql, const std::vector<Value>& params) = 0;
  // Runs the prepared statement called `statement`: prepared from `sql` at its first use, then
  // reset, its bindings cleared, `params` bound and executed again at every later use — the
  // path a result cache must survive ("reset and re-execution"). An engine without prepared
  // statements runs it afresh and says so in supports_prepared().
  virtual ResultSet run_prepared(const std::string& statement, std::string_view sql,
                                 const std::vector<Value>& params) = 0;
  virtual bool supports_prepared() const { return true; }
  // The planner's optimizations this engine can switch off one by one, by name, for the
  // query-plan oracle (plans.h); none by default.
  virtual std::vector<std::string> optimizations() const { return {}; }
  // Switches off exactly the named optimizations, all others on (none named: all on). An
  // error for a name optimizations() does not offer; statements run afterwards use the
  // setting.
  virtual Status switch_off(const std::vector<std::string>& names) {
    if (names.empty()) return {};
    return Error{name() + " offers no optimization to switch off", 0, ErrorKind::input};
  }
  // Which engine this is, for reports ("sqlite::memory:").
  virtual std::string name() const = 0;

 protected:
  // Protected so that a Target is never copied or moved through the base (slicing); derived
  // classes keep their own copy and move rules.
  Target() = default;
  Target(const Target&) = default;
  Target(Target&&) = default;
  Target& operator=(const Target&) = default;
  Target& operator=(Target&&) = default;
};

}  // namespace jbench::oracle
