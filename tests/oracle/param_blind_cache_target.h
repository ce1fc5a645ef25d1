// A deliberately wrong target (issue 15, item 3): a scalar-subquery result cache that ignores
// parameters. It wraps a real SqliteTarget and, for SQL holding a scalar subquery, returns the
// first result it saw for that SQL text, whatever is bound to ?1..?N. The runner must catch it
// on a corpus that runs the same SQL with different `params:`.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "jbench/oracle/sqlite_target.h"
#include "jbench/oracle/target.h"

namespace jbench::oracle {

class ParamBlindCacheTarget : public Target {
 public:
  explicit ParamBlindCacheTarget(SqliteTarget real) : real_(std::move(real)) {}

  ResultSet run(std::string_view sql, const std::vector<Value>& params) override {
    // The bug: the key is the SQL text alone; `params` should be part of it.
    if (sql.find("(SELECT") == std::string_view::npos) return real_.run(sql, params);
    auto hit = cache_.find(std::string(sql));
    if (hit != cache_.end()) return hit->second;
    ResultSet r = real_.run(sql, params);
    if (r.ok()) cache_.emplace(std::string(sql), r);
    return r;
  }

  std::string name() const override { return "param-blind-cache(" + real_.name() + ")"; }

 private:
  SqliteTarget real_;
  std::map<std::string, ResultSet, std::less<>> cache_;
};

}  // namespace jbench::oracle
