// Moving Values (result_set.h) in and out of a libsqlite3 statement: the one place the oracle
// maps SQLite's storage classes onto its own, for SqliteTarget and for wrappers that prepare
// statements on its connection (the tests' cache fixtures).
#pragma once

#include "jbench/oracle/result_set.h"

struct sqlite3_stmt;

namespace jbench::oracle {

// sqlite3_bind_* of `v` at 1-based `index`; SQLite's result code.
int bind_value(sqlite3_stmt* stmt, int index, const Value& v);
// Column `i` of the current row, in its storage class (a zero-length blob is an empty blob).
Value column_value(sqlite3_stmt* stmt, int i);

}  // namespace jbench::oracle
