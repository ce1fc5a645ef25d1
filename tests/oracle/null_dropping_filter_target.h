// A deliberately wrong target for the TLP check (tlp.h): a filtered scan with broken NULL
// handling. It wraps a real SqliteTarget and, for any SQL containing "WHERE", drops the rows
// whose first column is NULL, as an engine might that skipped NULL keys in a filtered index
// scan. Unfiltered queries are untouched, so only a check that relates a filtered query to an
// unfiltered one (TLP) can see it with this single engine.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "jbench/oracle/sqlite_target.h"
#include "jbench/oracle/target.h"

namespace jbench::oracle {

class NullDroppingFilterTarget : public Target {
 public:
  explicit NullDroppingFilterTarget(SqliteTarget real) : real_(std::move(real)) {}

  ResultSet run(std::string_view sql, const std::vector<Value>& params) override {
    ResultSet r = real_.run(sql, params);
    if (sql.find("WHERE") == std::string_view::npos) return r;
    // The bug: a NULL in the first column should not decide whether a row is kept.
    std::erase_if(r.rows,
                  [](const Row& row) { return !row.empty() && row[0].kind == ValueKind::null; });
    return r;
  }

  ResultSet run_prepared(const std::string&, std::string_view sql,
                         const std::vector<Value>& params) override {
    return run(sql, params);
  }
  std::string name() const override { return "null-dropping-filter(" + real_.name() + ")"; }

 private:
  SqliteTarget real_;
};

}  // namespace jbench::oracle
