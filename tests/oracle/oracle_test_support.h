// Helpers the oracle's test files share: an in-memory SQLite target, a result set of rows.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "jbench/oracle/result_set.h"
#include "jbench/oracle/sqlite_target.h"

namespace jbench::oracle::test_support {

// A fresh in-memory database, opened with these pragmas; a failure to open it fails the test.
inline SqliteTarget memory_db(std::vector<std::string> pragmas = {}) {
  auto db = SqliteTarget::open(":memory:", pragmas);
  if (!db) ADD_FAILURE() << db.error().message;
  return std::move(db).value();
}

// A result set with these rows (and, when given, these column names).
inline ResultSet rows_of(std::vector<Row> rows, std::vector<std::string> columns = {}) {
  return ResultSet{std::move(columns), std::move(rows), std::nullopt, std::nullopt};
}

// A path for a scratch file of this test process under the system's temporary folder.
inline std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("jbench-" + std::to_string(::getpid()) + "-" + name))
      .string();
}

}  // namespace jbench::oracle::test_support
